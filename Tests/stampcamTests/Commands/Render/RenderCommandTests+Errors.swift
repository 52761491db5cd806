import Foundation
import Testing

/// Errors raised while rendering say where: the manifest, the job's line and id, the input at fault.
@Suite("render: errors that name their job and input")
struct RenderErrorCommandTests {
  /// Writes `photo.jpg` and `photo.png` (96 x 64, noisy, so that cutting them cuts pixel data) by rendering a PPM
  /// with stampcam itself, then `a.jpg` and `b.png`: their first halves.
  static func truncatedPhotos(_ cli: CommandRunner) throws {
    try cli.ppm("noise.ppm", width: 96, height: 64) { x, y in
      [UInt8((x * 37 + y * 11) & 255), UInt8((x * y * 7) & 255), UInt8((x ^ y) * 5 & 255)]
    }
    try cli.write(
      "make.json",
      #"{"version": 1, "jobs": [{"base": "noise.ppm", "output": "photo.jpg"}, {"base": "noise.ppm", "output": "photo.png"}]}"#
    )
    let made = try cli.run(["render", "make.json", "--out", "."])
    #expect(made.status == 0, "\(made.stderr)")
    for (whole, cut) in [("photo.jpg", "a.jpg"), ("photo.png", "b.png")] {
      let data = try Data(contentsOf: URL(fileURLWithPath: cli.path(whole)))
      try cli.write(cut, bytes: Array(data.prefix(data.count / 2)))
    }
  }

  /// A truncated photo's error starts with the manifest, the line where its job starts and the job's id, names the
  /// photo as the manifest does and says what is wrong, never a temporary file; the report carries the same text.
  /// In JSON Lines the line is the job's line.
  @Test func aTruncatedPhotoNamesTheManifestLineJobAndPhoto() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try Self.truncatedPhotos(cli)
    try FileManager.default.createDirectory(atPath: cli.path("in"), withIntermediateDirectories: true)
    try FileManager.default.moveItem(atPath: cli.path("a.jpg"), toPath: cli.path("in/a.jpg"))
    try cli.write(
      "in/m.json",
      """
      {"version": 1, "jobs": [
        {"id": "fine", "base": "../noise.ppm", "output": "fine.png"},
        {
          "id": "bridge-07", "base": "a.jpg", "output": "bridge.png"
        }
      ]}
      """)
    let result = try cli.run(["render", "in/m.json", "--out", "out", "--report", "report.jsonl"])
    #expect(result.status == 1)
    let expected = #"in/m.json:3: job "bridge-07": in/a.jpg: truncated JPEG"#
    #expect(result.stderr.contains("stampcam: error: \(expected)\n"), "\(result.stderr)")
    #expect(!result.stderr.contains(".tmp") && !result.stderr.contains("encode"), "\(result.stderr)")
    let report = try String(contentsOfFile: cli.path("report.jsonl"), encoding: .utf8)
    #expect(report.contains(#""error": "in/m.json:3: job \"bridge-07\": in/a.jpg: truncated JPEG""#), "\(report)")
    try cli.write("m.jsonl", #"{"id": "ok", "base": "noise.ppm", "output": "ok.png"}"# + "\n\n" + #"{"base": "b.png"}"#)
    let lines = try cli.run(["render", "m.jsonl", "--out", "out2"])
    #expect(lines.status == 1)
    #expect(lines.stderr.contains(#"stampcam: error: m.jsonl:3: job "1": b.png: truncated PNG"#), "\(lines.stderr)")
  }

  /// Two jobs failing at once under --jobs 2 each report their own photo and its own problem: a truncated JPEG and
  /// a truncated PNG, alternating over 16 jobs, three runs. (libvips' error text is the process's: taken alone it
  /// was sometimes the other job's, or empty.)
  @Test func concurrentFailuresReportTheirOwnPhoto() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try Self.truncatedPhotos(cli)
    let jobs = (0..<16).map { i in
      #"{"id": "j\#(i)", "base": "\#(i % 2 == 0 ? "a.jpg" : "b.png")", "output": "j\#(i).png"}"#
    }
    try cli.write("m.json", "{\"version\": 1, \"jobs\": [\n" + jobs.joined(separator: ",\n") + "\n]}")
    for run in 0..<3 {
      let result = try cli.run(["render", "m.json", "--out", "out\(run)", "--jobs", "2", "--quiet"])
      #expect(result.status == 1)
      let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("stampcam: error: ") }
      #expect(errors.count == 16, "\(result.stderr)")
      for i in 0..<16 {
        let own = i % 2 == 0 ? "a.jpg: truncated JPEG" : "b.png: truncated PNG"
        let line = "stampcam: error: m.json:\(i + 2): job \"j\(i)\": \(own)"
        #expect(errors.contains { $0 == line }, "missing \(line) in \(result.stderr)")
      }
    }
  }

  /// Debian's libjpeg reads 8-bit JPEGs only and refuses a 12-bit one at its header, so no path can read it (the
  /// README promised a fallback to pixels, and render called the photo "broken"). validate and render now say
  /// what it is, naming the file; the JPEG here is an 8-bit one whose frame header (SOF) says 12 bits.
  @Test func aTwelveBitJPEGIsNamedAsSuch() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try Self.twelveBitPhoto(cli)
    try cli.write(
      "m.json",
      #"{"version": 1, "jobs": [{"id": "a", "base": "photo.jpg", "output": "a.jpg"}, {"id": "b", "base": "photo.jpg", "output": "b.png"}]}"#
    )
    let words = "photo.jpg: a 12-bit JPEG, which stampcam cannot read (its libjpeg reads 8-bit JPEGs only)"
    let validated = try cli.run(["validate", "m.json"])
    #expect(validated.status == 2)
    #expect(validated.stderr.contains("m.json:1: jobs[0]: " + words), "\(validated.stderr)")
    #expect(validated.stderr.contains("m.json:1: jobs[1]: " + words), "\(validated.stderr)")
    let rendered = try cli.run(["render", "m.json", "--out", "out"])
    #expect(rendered.status == 1)
    #expect(rendered.stderr.contains(#"m.json:1: job "a": "# + words), "\(rendered.stderr)")
    #expect(rendered.stderr.contains(#"m.json:1: job "b": "# + words), "\(rendered.stderr)")
    #expect(cli.files("out").isEmpty)
    let explained = try cli.run(["explain", "m.json"])
    #expect(explained.status == 1)
    #expect(explained.stdout.contains(#"{"id": "a", "error": ""# + words), "\(explained.stdout)")
  }

  /// `photo.jpg`: an 8-bit JPEG whose frame header (SOF) says 12 bits, as libjpeg sees a 12-bit one.
  static func twelveBitPhoto(_ cli: CommandRunner) throws {
    var bytes = try cli.jpeg("eight.jpg", width: 16, height: 16, rgb: [90, 90, 90])
    // Markers from the SOI: each segment is FF, its code, a 2-byte length; the frame header's first byte is P.
    var at = 2
    while at + 4 < bytes.count, !(0xC0...0xC2).contains(bytes[at + 1]) {
      at += 2 + (Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]))
    }
    #expect(bytes[at] == 0xFF && bytes[at + 4] == 8)
    bytes[at + 4] = 12
    try cli.write("photo.jpg", bytes: bytes)
  }

  /// `stampcam help render` listed 12-bit among the JPEGs that fall back to pixels, while render refuses them: the
  /// help and the README now say what render does, and render does it (status 1, the job failed, no file).
  @Test func theHelpAndTheReadmeSayWhatRenderDoesWithATwelveBitJPEG() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    let help = try cli.run(["help", "render"])
    #expect(help.status == 0)
    let readme = try String(
      contentsOf: ScaleOutRecipeTests.repository.appendingPathComponent("README.md"), encoding: .utf8)
    for (name, text) in [("help render", help.stdout), ("README", readme)] {
      let sentences = StandardStreamTests.sentences(of: text)
      let fallback = sentences.filter { $0.contains("fall back to pixels") || $0.contains("re-encoded from pixels") }
      #expect(!fallback.isEmpty, "\(name)")
      #expect(!fallback.contains { $0.contains("12-bit") }, "\(name): \(fallback)")
      let twelve = try #require(sentences.first { $0.contains("12-bit JPEG") }, "\(name)")
      #expect(twelve.contains("is not read at all"), "\(name): \(twelve)")
    }
    try Self.twelveBitPhoto(cli)
    try cli.write("m.json", #"{"version": 1, "jobs": [{"id": "a", "base": "photo.jpg", "output": "a.jpg"}]}"#)
    let rendered = try cli.run(["render", "m.json", "--out", "out", "--report", "r.jsonl"])
    #expect(rendered.status == 1)
    #expect(rendered.stderr.contains(#"job "a": photo.jpg: a 12-bit JPEG, which stampcam cannot read"#))
    let report = try String(contentsOfFile: cli.path("r.jsonl"), encoding: .utf8)
    #expect(report.contains(#""status": "failed""#) && !report.contains(#""path": "pixels""#), "\(report)")
    #expect(cli.files("out").isEmpty)
  }
}
