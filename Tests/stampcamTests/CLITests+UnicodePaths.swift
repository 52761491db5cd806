import Foundation
import StampTestSupport
import Testing

/// Names are bytes: `é` in NFC (U+00E9) and in NFD (`e` U+0301) are two files on Linux, and a `/` followed by a
/// combining mark is still a `/`. Swift's `String` compares canonically and groups a mark with the character before
/// it; every path stampcam compares or splits is handled as bytes instead.
@Suite("Paths as bytes: Unicode normalization and combining marks")
struct UnicodePathTests {
  static let nfc = "\u{E9}"
  static let nfd = "e\u{301}"

  /// A job drawing the NFC stamp at (10, 10) and the NFD one at (30, 10) on `photo.ppm`.
  static let twoStamps = #"""
    {"version": 1, "jobs": [{"id": "a", "base": "photo.ppm", "output": "a.png", "stamps": [
      {"id": "red", "image": "\u00e9.ppm", "center": [10, 10]}, {"id": "blue", "image": "e\u0301.ppm", "center": [30, 10]}]}]}
    """#

  /// A folder holding a black 40 x 20 `photo.ppm`.
  static func folder() throws -> CommandRunner {
    let cli = try CommandRunner()
    try cli.ppm("photo.ppm", width: 40, height: 20, rgb: [0, 0, 0])
    return cli
  }

  /// The stamp cache and the stamps' sizes were keyed by canonical equality: the NFD stamp (blue, 8 x 8) was drawn
  /// with the NFC one's pixels and size (red, 4 x 4). Each is now drawn as itself.
  @Test func twoStampsNamedAlikeButForNormalizationAreTwoStamps() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try cli.ppm("\(Self.nfc).ppm", width: 4, height: 4, rgb: [255, 0, 0])
    try cli.ppm("\(Self.nfd).ppm", width: 8, height: 8, rgb: [0, 0, 255])
    #expect(cli.files(".").count == 3)
    // The stamps' centres at (10, 10) and (30, 10): the red one covers x 8..<12, the blue one x 26..<34.
    try cli.write("m.json", Self.twoStamps)
    #expect(try cli.run(["validate", "m.json"]).status == 0)
    let result = try cli.run(["render", "m.json", "--out", "out", "--jobs", "1"])
    #expect(result.status == 0, "\(result.stderr)")
    let a = try Pixels(cli.path("out/a.png"))
    #expect(a[10, 10] == [255, 0, 0])
    #expect(a[13, 10] == [0, 0, 0])
    #expect(a[27, 10] == [0, 0, 255] && a[33, 10] == [0, 0, 255])
    #expect(a[25, 10] == [0, 0, 0])
  }

  /// Transformed stamps are kept for reuse across jobs, keyed by the stamp's path and placement: the NFD stamp at
  /// the place two jobs had drawn the NFC one was drawn with the NFC one's kept pixels.
  @Test func aKeptTransformIsNotSharedByStampsNamedAlike() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try cli.ppm("\(Self.nfc).ppm", width: 8, height: 8, rgb: [255, 0, 0])
    try cli.ppm("\(Self.nfd).ppm", width: 8, height: 8, rgb: [0, 0, 255])
    let job = { (id: String, image: String) in
      #"{"id": "\#(id)", "base": "photo.ppm", "output": "\#(id).png", "stamps": [{"id": "s", "image": "\#(image).ppm", "center": [10.25, 10.25], "scale": 1.5, "rotation": 30}]}"#
    }
    try cli.write(
      "m.jsonl", [job("a", #"\u00e9"#), job("b", #"\u00e9"#), job("c", #"e\u0301"#)].joined(separator: "\n") + "\n")
    let result = try cli.run(["render", "m.jsonl", "--out", "out", "--jobs", "1"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try Pixels(cli.path("out/b.png"))[10, 10] == [255, 0, 0])
    #expect(try Pixels(cli.path("out/c.png"))[10, 10] == [0, 0, 255])
  }

  /// A job naming the NFC stamp and a missing NFD one validated (the second was taken for the first) and rendered
  /// with the first's pixels. validate now names the missing file, and render fails the job.
  @Test func aMissingStampNamedAlikeIsMissing() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try cli.ppm("\(Self.nfc).ppm", width: 4, height: 4, rgb: [255, 0, 0])
    try cli.write("m.json", Self.twoStamps)
    let validated = try cli.run(["validate", "m.json"])
    #expect(validated.status == 2)
    #expect(validated.stderr.contains("jobs[0].stamps[1].image: \(Self.nfd).ppm: "), "\(validated.stderr)")
    let rendered = try cli.run(["render", "m.json", "--out", "out"])
    #expect(rendered.status == 1)
    #expect(rendered.stderr.contains("\(Self.nfd).ppm"), "\(rendered.stderr)")
    #expect(cli.files("out").isEmpty)
  }

  /// Two outputs differing only in normalization are two files: both are written (they were refused as one).
  @Test func outputsNamedAlikeButForNormalizationAreTwoFiles() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try cli.ppm("photo.ppm", width: 8, height: 8, rgb: [1, 2, 3])
    try cli.write(
      "m.json",
      #"""
      {"version": 1, "jobs": [{"id": "a", "base": "photo.ppm", "output": "\u00e9.png"},
        {"id": "b", "base": "photo.ppm", "output": "e\u0301.png"}]}
      """#)
    #expect(try cli.run(["validate", "m.json"]).status == 0)
    let result = try cli.run(["render", "m.json", "--out", "out"])
    #expect(result.status == 0, "\(result.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: cli.path("out")).filter { !$0.hasPrefix(".") }
    #expect(Set(names.map { Array($0.utf8) }) == [Array("\(Self.nfc).png".utf8), Array("\(Self.nfd).png".utf8)])
  }

  /// A job's output and its view output named alike but for normalization: once both are allowed, each must be
  /// drawn as itself (the outputs were told apart by `String ==`, which drew the photo into both).
  @Test func anOutputAndAViewNamedAlikeAreEachDrawn() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try cli.ppm("photo.ppm", width: 40, height: 20, rgb: [1, 2, 3])
    try cli.write(
      "m.json",
      #"""
      {"version": 1, "jobs": [{"id": "a", "base": "photo.ppm", "output": "\u00e9.png", "viewOutput": "e\u0301.png",
        "view": {"width": 20, "height": 16}}]}
      """#)
    let result = try cli.run(["render", "m.json", "--out", "out"])
    #expect(result.status == 0, "\(result.stderr)")
    let main = try Pixels(cli.path("out/\(Self.nfc).png"))
    let view = try Pixels(cli.path("out/\(Self.nfd).png"))
    #expect((main.width, main.height) == (40, 20))
    #expect((view.width, view.height) == (20, 16))
  }

  /// `../\u{301}d/x.png` is `..`, then `\u{301}d`: a Character split saw one component, validate passed, and render
  /// made `\u{301}d/x.png` beside --out. `/\u{301}tmp/x.png` is absolute. Both are refused, and nothing is made.
  @Test(arguments: [#"../\u0301d/x.png"#, #"/\u0301tmp-stampcam/x.png"#, #"d/../\u0301../x.png"#])
  func aCombiningMarkAfterASlashLeadsNowhereOutside(_ output: String) throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try FileManager.default.createDirectory(atPath: cli.path("w"), withIntermediateDirectories: true)
    try cli.ppm("w/photo.ppm", width: 8, height: 8, rgb: [1, 2, 3])
    try cli.write("w/m.json", #"{"version": 1, "jobs": [{"id": "a", "base": "photo.ppm", "output": "\#(output)"}]}"#)
    let validated = try cli.run(["validate", "w/m.json"])
    #expect(validated.status == 2)
    #expect(validated.stderr.contains("jobs[0].output"), "\(validated.stderr)")
    #expect(try cli.run(["render", "w/m.json", "--out", "w/out"]).status == 2)
    #expect(cli.files(".") == ["w/m.json", "w/photo.ppm"])
    // Where the old code wrote, at the root of the file system: removed should it ever be made again.
    #expect(!FileManager.default.fileExists(atPath: "/\u{301}tmp-stampcam"))
    try? FileManager.default.removeItem(atPath: "/\u{301}tmp-stampcam")
  }

  /// `--input-root é` (NFC) does not hold `é/` in NFD, its sibling: the root was compared canonically.
  @Test func theInputRootIsComparedByBytes() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    for folder in [Self.nfc, Self.nfd] {
      try FileManager.default.createDirectory(atPath: cli.path(folder), withIntermediateDirectories: true)
      try cli.ppm("\(folder)/photo.ppm", width: 8, height: 8, rgb: [1, 2, 3])
    }
    try cli.write(
      "m.json",
      #"""
      {"version": 1, "jobs": [{"id": "a", "base": "\u00e9/photo.ppm", "output": "a.png"},
        {"id": "b", "base": "e\u0301/photo.ppm", "output": "b.png"}]}
      """#)
    for command in [["validate", "m.json"], ["render", "m.json", "--out", "out"]] {
      let result = try cli.run(command + ["--input-root", Self.nfc])
      #expect(result.status == 2)
      #expect(result.stderr.contains("jobs[1].base: \(Self.nfd)/photo.ppm: outside the input root"), "\(result.stderr)")
      #expect(!result.stderr.contains("jobs[0]"), "\(result.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: cli.path("out")))
  }
}
