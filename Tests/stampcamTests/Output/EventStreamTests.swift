import Foundation
import StampTestSupport
import Testing

/// `render --events`: a dashboard reads a real run from its events alone, a failed job, a resumed run, a shard and
/// a job over many photos included, and finds the tally stampcam prints.
@Suite("render --events: progress for programs")
struct EventStreamTests {
  /// What a dashboard keeps of a run's events.
  struct Dashboard {
    var start: [String: Any] = [:]
    var end: [String: Any] = [:]
    var started: [String] = []
    var ended: [String: String] = [:]
    var places: [Int] = []
    /// Problems in the stream itself: an unknown event, a job ending that never started, lines after the end.
    var problems: [String] = []

    init(_ text: String) throws {
      let lines = text.split(separator: "\n")
      for (number, line) in lines.enumerated() {
        let object = try #require(
          try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "line \(number + 1): \(line)")
        guard object["elapsed"] is Double || object["elapsed"] is Int else {
          problems.append("line \(number + 1) has no elapsed")
          continue
        }
        switch object["event"] as? String {
        case "start":
          if number != 0 { problems.append("start on line \(number + 1)") }
          start = object
        case "job-start":
          let id = try #require(object["id"] as? String)
          started.append(id)
          places.append(try #require(object["place"] as? Int))
        case "job-end":
          let id = try #require(object["id"] as? String)
          if !started.contains(id) { problems.append("\(id) ended before it started") }
          ended[id] = try #require(object["status"] as? String)
        case "end":
          if number != lines.count - 1 { problems.append("end on line \(number + 1) of \(lines.count)") }
          end = object
        default: problems.append("line \(number + 1): unknown event")
        }
      }
    }

    /// How many jobs ended with `status`.
    func count(_ status: String) -> Int { ended.values.filter { $0 == status }.count }
  }

  /// Jobs `a` and `b` render, `c` fails (its photo is missing), and `wm` makes a job of each of two photos.
  static func folder() throws -> CommandRunner {
    let cli = try CommandRunner()
    try FileManager.default.createDirectory(atPath: cli.path("in"), withIntermediateDirectories: true)
    try cli.jpeg("in/p.jpg", width: 40, height: 30, rgb: [10, 100, 200])
    try cli.jpeg("in/q.jpg", width: 30, height: 40, rgb: [200, 100, 10])
    try cli.write("m.jsonl", jobs(["a", "b", "c"]))
    return cli
  }

  static func jobs(_ ids: [String]) -> String {
    let lines = ids.map { id in
      id == "c"
        ? #"{"id": "c", "base": "missing.jpg", "output": "c.png"}"#
        : #"{"id": "\#(id)", "base": "in/p.jpg", "output": "\#(id).png"}"#
    }
    return (lines + [#"{"id": "wm", "photos": "in/*.jpg", "output": "wm/{stem}.png"}"#]).joined(separator: "\n") + "\n"
  }

  /// The first run announces the 5 jobs it makes (2 from `wm`), none resumed; every job starts once and ends once;
  /// the end's tally is the dashboard's own count and the summary stampcam prints, exit status 1. The second, with
  /// --resume and a new job, announces the 4 up to date (the failed one is redone), and its end says 4 skipped,
  /// with --quiet printing nothing but the failure.
  @Test func aDashboardReproducesTheTallyOfAFailedAndAResumedRun() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    let first = try cli.run(["render", "m.jsonl", "--out", "out", "--events", "events.jsonl", "--jobs", "2"])
    #expect(first.status == 1, "\(first.stderr)")
    var dashboard = try Dashboard(String(decoding: try cli.bytes("events.jsonl"), as: UTF8.self))
    #expect(dashboard.problems.isEmpty, "\(dashboard.problems)")
    #expect(dashboard.start["jobs"] as? Int == 5 && dashboard.start["resumed"] as? Int == 0)
    #expect(dashboard.start["todo"] as? Int == 5 && dashboard.start["shard"] is NSNull)
    #expect(dashboard.started.sorted() == ["a", "b", "c", "wm/p.jpg", "wm/q.jpg"])
    #expect(dashboard.places.sorted() == [0, 1, 2, 3, 4])
    #expect(dashboard.count("ok") == 4 && dashboard.count("failed") == 1 && dashboard.ended["c"] == "failed")
    #expect(dashboard.end["jobs"] as? Int == 5 && dashboard.end["ok"] as? Int == dashboard.count("ok"))
    #expect(dashboard.end["failed"] as? Int == 1 && dashboard.end["skipped"] as? Int == 0)
    #expect(dashboard.end["status"] as? Int == 1 && dashboard.end["interrupted"] as? Bool == false)
    #expect(first.stderr.contains("5 jobs: 4 written, 1 failed, 0 skipped"), "\(first.stderr)")

    try cli.write("m.jsonl", Self.jobs(["a", "b", "c", "d"]))
    let second = try cli.run(["render", "m.jsonl", "--out", "out", "--events", "-", "--resume", "--quiet"])
    #expect(second.status == 1)
    #expect(!second.stderr.contains("jobs:"), "--quiet prints no summary: \(second.stderr)")
    dashboard = try Dashboard(second.stdout)
    #expect(dashboard.problems.isEmpty, "\(dashboard.problems)")
    #expect(dashboard.start["jobs"] as? Int == 6 && dashboard.start["resumed"] as? Int == 4)
    #expect(dashboard.start["todo"] as? Int == 2)
    #expect(dashboard.count("skipped") == 4 && dashboard.ended["d"] == "ok" && dashboard.ended["c"] == "failed")
    #expect(dashboard.end["jobs"] as? Int == 6 && dashboard.end["skipped"] as? Int == 4)
    #expect(dashboard.end["ok"] as? Int == 1 && dashboard.end["failed"] as? Int == 1)
  }

  /// `--shard 1/2` announces its own jobs only (places 1 and 3 of 0...4) and names the shard.
  @Test func aShardAnnouncesItsOwnJobs() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    let result = try cli.run(["render", "m.jsonl", "--out", "out", "--events", "-", "--shard", "1/2", "--quiet"])
    let dashboard = try Dashboard(result.stdout)
    #expect(dashboard.start["jobs"] as? Int == 2 && dashboard.start["shard"] as? String == "1/2")
    #expect(dashboard.places.sorted() == [1, 3])
    #expect(dashboard.end["jobs"] as? Int == 2)
  }

  /// Events into a pipe nobody reads stop the run before any job starts, with the status of a lost standard output
  /// (3), not the 130 of an interrupt the user never sent; nothing is written.
  @Test func eventsIntoAClosedPipeStopTheRunAsALostOutput() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    let result = try cli.runIntoClosedPipe(["render", "m.jsonl", "--out", "out", "--events", "-"])
    #expect(result.status == 3, "\(result.stderr)")
    #expect(result.stderr.contains("cannot write the events"), "\(result.stderr)")
    #expect(!result.stderr.contains("interrupted"), "\(result.stderr)")
    #expect(cli.files("out").isEmpty)
  }

  /// --events and --report cannot both be standard output, and --events may not name the manifest or an input.
  @Test func eventsThatWouldMixOrOverwriteAreRefused() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    let both = try cli.run(["render", "m.jsonl", "--out", "out", "--events", "-", "--report", "-"])
    #expect(both.status == 2 && both.stderr.contains("--events - and --report -"), "\(both.stderr)")
    for path in ["m.jsonl", "in/p.jpg"] {
      let before = try cli.bytes(path)
      let result = try cli.run(["render", "m.jsonl", "--out", "out", "--events", path])
      #expect(result.status == 2, "\(result.stderr)")
      #expect(result.stderr.contains("--events would overwrite") || result.stderr.contains("the --events file"))
      #expect(try cli.bytes(path) == before)
    }
    #expect(cli.files("out").isEmpty)
  }
}

extension CommandRunner {
  fileprivate func bytes(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }
}
