import Foundation
import Testing

/// `render` on manifests whose outputs or report would overwrite the batch's own files: refused before anything
/// is written, naming both sides; a report that cannot be written is an error.
@Suite("render: nothing overwritten, the report checked")
struct RenderCommandTests {
  /// A PNG made by stampcam itself from a one-colour PPM, to serve as an input.
  static func png(_ cli: CommandRunner, _ name: String) throws {
    try cli.ppm("photo.ppm", width: 16, height: 12, rgb: [30, 60, 90])
    try cli.write("make.json", #"{"version": 1, "jobs": [{"id": "m", "base": "photo.ppm", "output": "\#(name)"}]}"#)
    let made = try cli.run(["render", "make.json", "--out", ".", "--quiet"])
    #expect(made.status == 0, "\(made.stderr)")
  }

  func bytes(_ cli: CommandRunner, _ name: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: cli.path(name)))
  }

  /// With --out the manifest's folder, a job writing `sunset.png` would replace the photo a later job reads: the
  /// manifest is refused (status 2), naming both jobs, and the photo is untouched.
  @Test func anOutputThatIsAnotherJobsInputIsRefused() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try Self.png(cli, "sunset.png")
    let before = try bytes(cli, "sunset.png")
    try cli.write(
      "m.json",
      """
      {"version": 1, "jobs": [
        {"id": "first", "base": "photo.ppm", "output": "sunset.png"},
        {"id": "second", "base": "sunset.png", "output": "later.png"}
      ]}
      """)
    let result = try cli.run(["render", "m.json", "--out", "."])
    #expect(result.status == 2)
    #expect(result.stderr.contains("job \"first\"") && result.stderr.contains("job \"second\""), "\(result.stderr)")
    #expect(try bytes(cli, "sunset.png") == before)
    #expect(!FileManager.default.fileExists(atPath: cli.path("later.png")))
  }

  /// One job's overlay named as another's output, and `d1/x.png` and `d2/x.png` where `d2` links to `d1`: the same
  /// files under other names, refused for JSON and JSON Lines manifests alike.
  @Test func twoJobsWritingOneFileAreRefused() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try cli.ppm("photo.ppm", width: 16, height: 12, rgb: [30, 60, 90])
    try FileManager.default.createDirectory(atPath: cli.path("out/d1"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: cli.path("out/d2"), withDestinationPath: "d1")
    let overlay = [
      #"{"id": "a", "base": "photo.ppm", "output": "a.png", "overlay": true}"#,
      #"{"id": "b", "base": "photo.ppm", "output": "a.overlay.png"}"#,
    ]
    let linked = [
      #"{"id": "c", "base": "photo.ppm", "output": "d1/x.png"}"#,
      #"{"id": "d", "base": "photo.ppm", "output": "d2/x.png"}"#,
    ]
    for (first, second) in [("a", "b"), ("c", "d")] {
      let jobs = first == "a" ? overlay : linked
      try cli.write("m.json", "{\"version\": 1, \"jobs\": [" + jobs.joined(separator: ",") + "]}")
      try cli.write("m.jsonl", jobs.joined(separator: "\n") + "\n")
      for manifest in ["m.json", "m.jsonl"] {
        let result = try cli.run(["render", manifest, "--out", "out"])
        #expect(result.status == 2, "\(manifest)")
        #expect(result.stderr.contains("job \"\(first)\"") && result.stderr.contains("job \"\(second)\""))
        #expect(result.stderr.contains("same file"), "\(result.stderr)")
        #expect(cli.files("out").isEmpty)
      }
    }
  }

  /// `--report` naming the manifest (or an input) is refused up front, exit 2, and the manifest is untouched.
  @Test func aReportThatIsTheManifestOrAnInputIsRefused() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try cli.ppm("photo.ppm", width: 16, height: 12, rgb: [30, 60, 90])
    let photo = try bytes(cli, "photo.ppm")
    let line = #"{"id": "a", "base": "photo.ppm", "output": "a.png"}"# + "\n"
    try cli.write("p.jsonl", line)
    for report in ["p.jsonl", "./photo.ppm"] {
      let result = try cli.run(["render", "p.jsonl", "--out", "out", "--report", report])
      #expect(result.status == 2, "\(report)")
      #expect(result.stderr.contains("--report"), "\(result.stderr)")
      #expect(try String(contentsOfFile: cli.path("p.jsonl"), encoding: .utf8) == line)
      #expect(try bytes(cli, "photo.ppm") == photo)
      #expect(cli.files("out").isEmpty)
    }
  }

  /// A report that cannot be written (`/dev/full`) is an error: nonzero status and a message, and no output stays
  /// that the report does not list.
  @Test func aReportThatCannotBeWrittenFailsTheRun() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try cli.ppm("photo.ppm", width: 16, height: 12, rgb: [30, 60, 90])
    try cli.write("m.json", #"{"version": 1, "jobs": [{"id": "a", "base": "photo.ppm", "output": "a.png"}]}"#)
    let result = try cli.run(["render", "m.json", "--out", "out", "--report", "/dev/full"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("/dev/full: cannot write the report: no space left on device"), "\(result.stderr)")
    #expect(cli.files("out").isEmpty)
  }

  /// A report that is a FIFO nobody reads is refused at once (status 2) instead of hanging the run.
  @Test func aReportPipeWithNoReaderDoesNotHang() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try cli.ppm("photo.ppm", width: 16, height: 12, rgb: [30, 60, 90])
    try cli.write("m.json", #"{"version": 1, "jobs": [{"id": "a", "base": "photo.ppm", "output": "a.png"}]}"#)
    #expect(mkfifo(cli.path("report.fifo"), 0o600) == 0)
    let result = try cli.run(["render", "m.json", "--out", "out", "--report", "report.fifo"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("report.fifo: cannot open the report file: a pipe with no reader"))
    #expect(cli.files("out").isEmpty)
  }
}
