import Foundation
import Testing

/// Where `--out` and `--report` may be: each refusal is a usage error (status 2) printed before any folder is made
/// or any file written.
@Suite("--out and --report in odd places")
struct OutAndReportPlaceTests {
  static func folder() throws -> CommandRunner {
    let cli = try CommandRunner()
    try cli.ppm("photo.png", width: 8, height: 6, rgb: [1, 2, 3])
    try cli.write(
      "m.json",
      #"""
      {"version": 1, "jobs": [{"id": "a", "base": "photo.png", "output": "a.png"},
        {"id": "b", "base": "photo.png", "output": "r/x.png"}]}
      """#)
    return cli
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    /// A symbolic link to make first: its name and where it points.
    var link: (String, String)?
    var report: String
    var words: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    // The report was opened through the link, creating out/a.png, which the job then replaced.
    Case(
      name: "a dangling link to an output", link: ("r.jsonl", "out/a.png"), report: "r.jsonl",
      words: #"jobs[0].output: jobs[0].output of job "a" would overwrite the --report file: they are the same file"#),
    // A resume record replaced the report.
    Case(
      name: "inside --out/.stampcam", report: "out/.stampcam/r.jsonl",
      words: "out/.stampcam/r.jsonl: --report would lie in --out/.stampcam, where the resume records are kept"),
    Case(
      name: "a dangling link into --out/.stampcam", link: ("r.jsonl", "out/.stampcam/x"), report: "r.jsonl",
      words: "r.jsonl: --report would lie in --out/.stampcam"),
    Case(
      name: "under an output", report: "out/a.png/r.jsonl",
      words: #"jobs[0].output: the --report file out/a.png/r.jsonl would lie under "a.png", which job "a" writes"#),
    Case(
      name: "where an output needs a folder", report: "out/r",
      words: #"jobs[1].output: "r/x.png" of job "b" needs the --report file out/r as a folder"#),
  ]

  @Test(arguments: cases)
  func aReportInTheWayIsAUsageError(_ c: Case) throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    if let (name, target) = c.link {
      try FileManager.default.createSymbolicLink(atPath: cli.path(name), withDestinationPath: target)
    }
    let result = try cli.run(["render", "m.json", "--out", "out", "--report", c.report])
    #expect(result.status == 2)
    #expect(result.stderr.contains(c.words), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: cli.path("out")))
  }

  /// A report in --out beside the outputs is fine, and so is one that a dangling link leads to there (the report is
  /// opened before --out is made, so --out exists here).
  @Test func aReportBesideTheOutputsIsFine() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try FileManager.default.createDirectory(atPath: cli.path("out"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: cli.path("r.jsonl"), withDestinationPath: "out/report.jsonl")
    let result = try cli.run(["render", "m.json", "--out", "out", "--report", "r.jsonl"])
    #expect(result.status == 0, "\(result.stderr.prefix(2000))")
    #expect(cli.files("out") == ["a.png", "r/x.png", "report.jsonl"])
  }

  /// An --out of 3,000 components made about 2,000 folders before it failed; one of 65 made 65. Both, and an --out
  /// longer than a path may be, are refused before any folder is made.
  @Test(arguments: [
    (String(repeating: "a/", count: 2999) + "a", "has 3000 components; at most 64"),
    (String(repeating: "a/", count: 64) + "a", "has 65 components; at most 64"),
    (
      String(repeating: "a", count: 250) + "/" + String(repeating: "b", count: 256),
      "bytes long; a name may have at most 255"
    ),
    (
      Array(repeating: String(repeating: "a", count: 200), count: 21).joined(separator: "/"),
      "is 4220 bytes long; a path may have at most 4095"
    ),
  ])
  func anAbsurdOutIsRefusedBeforeAnyFolderIsMade(_ out: String, _ words: String) throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    let result = try cli.run(["render", "m.json", "--out", out, "--report", "r.jsonl"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("--out \(out.prefix(10))"), "\(result.stderr.suffix(200))")
    #expect(result.stderr.contains(words), "\(result.stderr.suffix(200))")
    #expect(cli.files(".") == ["m.json", "photo.png"])
    #expect(!FileManager.default.fileExists(atPath: cli.path(String(out.prefix(1)))))
  }

  /// An --out through a file said "NSCocoaErrorDomain error 512"; it now names the file that is not a folder.
  @Test func anOutThroughAFileNamesTheFile() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try cli.write("f", "x")
    let result = try cli.run(["render", "m.json", "--out", "f/b", "--report", "r.jsonl"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("stampcam: error: --out f/b: f: not a folder"), "\(result.stderr)")
    #expect(!result.stderr.contains("NSCocoaErrorDomain"))
    #expect(cli.files(".") == ["f", "m.json", "photo.png"])
    try FileManager.default.createSymbolicLink(atPath: cli.path("dangling"), withDestinationPath: "nowhere")
    let dangling = try cli.run(["render", "m.json", "--out", "dangling/b"])
    #expect(dangling.status == 2)
    #expect(dangling.stderr.contains("--out dangling/b: dangling: a symbolic link to nothing"), "\(dangling.stderr)")
  }
}
