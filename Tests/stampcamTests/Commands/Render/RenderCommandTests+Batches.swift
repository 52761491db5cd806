import Foundation
import Testing

/// Batches that lose nothing: shards, resume, reports, interruption, determinism.
@Suite("render: shards, resume, report, Ctrl-C")
struct BatchCommandTests {
  /// Six jobs with stamps at different places, a JSON manifest and the same as JSON Lines.
  static func prepare(_ cli: CommandRunner, jobs count: Int = 6, size: Int = 64) throws {
    try cli.ppm("photo.ppm", width: size, height: size, rgb: [30, 60, 90])
    try cli.ppm("stamp.ppm", width: 8, height: 8, rgb: [250, 250, 0])
    let jobs = (0..<count).map { i in
      #"{"id": "j\#(i)", "base": "photo.ppm", "output": "o/j\#(i).png", "stamps": [{"id": "s", "image": "stamp.ppm", "center": [\#(10 + i * 7).5, 20], "rotation": \#(i * 15)}]}"#
    }
    try cli.write("m.json", "{\"version\": 1, \"jobs\": [\n" + jobs.joined(separator: ",\n") + "\n]}")
    try cli.write("m.jsonl", jobs.joined(separator: "\n") + "\n")
  }

  func contents(_ cli: CommandRunner, _ folder: String) throws -> [String: Data] {
    var all: [String: Data] = [:]
    for file in cli.files(folder) {
      all[file] = try Data(contentsOf: URL(fileURLWithPath: cli.path(folder + "/" + file)))
    }
    return all
  }

  /// The union of three shards is byte-identical to one run, whatever the concurrency and the manifest format.
  @Test func shardsTogetherEqualOneRunByteForByte() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try Self.prepare(cli)
    #expect(try cli.run(["render", "m.json", "--out", "whole", "--jobs", "1"]).status == 0)
    for shard in 0..<3 {
      let result = try cli.run(["render", "m.jsonl", "--out", "parts", "--shard", "\(shard)/3", "--jobs", "2"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stderr.contains("2 jobs: 2 written"))
    }
    let whole = try contents(cli, "whole")
    #expect(whole.count == 6)
    #expect(whole == (try contents(cli, "parts")))
  }

  /// A JPEG with a zero in a quantization table (libjpeg's encoder would divide by it) falls back to pixels: the
  /// report says so, and one line after the summary counts it by reason; --quiet keeps stderr empty.
  @Test func aFallbackIsReportedAndCountedOnStderr() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try cli.ppm("photo.ppm", width: 32, height: 32, rgb: [30, 60, 90])
    try cli.write("first.json", #"{"version": 1, "jobs": [{"id": "p", "base": "photo.ppm", "output": "p.jpg"}]}"#)
    #expect(try cli.run(["render", "first.json", "--out", "in"]).status == 0)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: cli.path("in/p.jpg"))))
    let dqt = try #require(bytes.indices.dropLast().first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDB })
    bytes[dqt + 4 + 64] = 0
    try Data(bytes).write(to: URL(fileURLWithPath: cli.path("in/zero.jpg")))
    try cli.write(
      "m.json",
      #"{"version": 1, "jobs": [{"id": "a", "base": "in/p.jpg", "output": "a.jpg"}, "#
        + #"{"id": "b", "base": "in/zero.jpg", "output": "b.jpg"}]}"#)
    let result = try cli.run(["render", "m.json", "--out", "out", "--jobs", "1", "--report", "-"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains(#""id": "a""#) && result.stdout.contains(#""path": "spliced", "fallback": null"#))
    #expect(result.stdout.contains(#""path": "pixels", "fallback": "quantization""#), "\(result.stdout)")
    #expect(result.stderr.contains("1 job fell back from the lossless JPEG path to pixels: 1 quantization\n"))
    let quiet = try cli.run(["render", "m.json", "--out", "again", "--quiet"])
    #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
  }

  /// --resume skips complete jobs; a deleted output is rendered again; the report says which is which.
  @Test func resumeRendersOnlyWhatIsMissing() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try Self.prepare(cli)
    #expect(try cli.run(["render", "m.json", "--out", "out"]).status == 0)
    try FileManager.default.removeItem(atPath: cli.path("out/o/j4.png"))
    let again = try cli.run(["render", "m.json", "--out", "out", "--resume", "--report", "-"])
    #expect(again.status == 0)
    let lines = again.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 6)
    #expect(lines.filter { $0.contains("\"status\": \"skipped\"") }.count == 5)
    #expect(lines.contains { $0.contains("\"id\": \"j4\"") && $0.contains("\"status\": \"ok\"") })
    #expect(lines.contains { $0.contains("\"id\": \"j4\"") && $0.contains("\"resume\": \"redone: output missing\"") })
    #expect(lines.filter { $0.contains("\"resume\": \"skipped: up to date\"") }.count == 5)
    #expect(cli.files("out").count == 6)
  }

  /// Ctrl-C mid-batch: no new job starts, those in flight finish, no temporary file is left, the report so far is
  /// written, and the exit status is 130.
  @Test func interruptingABatchLosesNothing() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try Self.prepare(cli, jobs: 200, size: 600)
    let result = try cli.run(["render", "m.jsonl", "--out", "out", "--jobs", "1", "--report", "report.jsonl"]) {
      process in
      // Wait until the first job is reported, then interrupt.
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline {
        if let text = try? String(contentsOfFile: cli.path("report.jsonl"), encoding: .utf8), !text.isEmpty { break }
        usleep(20_000)
      }
      kill(process.processIdentifier, SIGINT)
    }
    #expect(result.status == 130, "\(result.stderr)")
    let written = cli.files("out")
    #expect(written.allSatisfy { $0.hasSuffix(".png") && !$0.contains(".tmp") }, "\(written)")
    #expect(written.count >= 1 && written.count < 200)
    let report = try String(contentsOfFile: cli.path("report.jsonl"), encoding: .utf8)
    #expect(report.split(separator: "\n").count == written.count)
  }
}
