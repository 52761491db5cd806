import Foundation
import StampTestSupport
import Testing

/// One gesture script over a folder of photos (`"photos"`), through the command line: every made job renders what
/// the same job written out by hand renders, and shards, resume, validate and `--script` work on the made jobs.
@Suite("render: a job over many photos")
struct BulkCommandTests {
  /// The script: one stamp placed in the photo's own terms, turned and grown by a pinch on a 100 x 100 screen.
  static let script = #"""
    "view": {"width": 100, "height": 100},
    "stamps": [{"id": "s", "image": "stamp.png", "photoCenter": [0.25, 0.75], "photoWidth": 0.3}],
    "gestures": [{"pinch": {"on": "s", "scale": 1.5, "rotation": 30}}]
    """#

  /// Photos of two shapes in two folders, and a stamp.
  static func folder() throws -> CommandRunner {
    let cli = try CommandRunner()
    for folder in ["in/sub", "in/empty"] {
      try FileManager.default.createDirectory(atPath: cli.path(folder), withIntermediateDirectories: true)
    }
    try cli.jpeg("in/a.jpg", width: 64, height: 96, rgb: [200, 40, 40])
    try cli.jpeg("in/b.jpg", width: 96, height: 64, rgb: [40, 200, 40])
    try cli.jpeg("in/sub/c.jpg", width: 80, height: 80, rgb: [40, 40, 200])
    try cli.ppm("stamp.png", width: 8, height: 8, rgb: [250, 250, 0])
    return cli
  }

  func bytes(_ cli: CommandRunner, _ name: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: cli.path(name)))
  }

  @Test func eachMadeJobRendersWhatTheJobWrittenOutByHandRenders() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try cli.write(
      "bulk.json",
      #"{"version": 1, "jobs": [{"id": "wm", "photos": "in/**/*.jpg", "output": "{dir}/{stem}.png", \#(Self.script)}]}"#
    )
    let hand = ["a", "b", "sub/c"].map { name in
      #"{"id": "\#(name)", "base": "in/\#(name).jpg", "output": "\#(name).png", \#(Self.script)}"#
    }
    try cli.write("hand.json", #"{"version": 1, "jobs": [\#(hand.joined(separator: ","))]}"#)
    let bulk = try cli.run(["render", "bulk.json", "--out", "bulk", "--report", "bulk.jsonl"])
    #expect(bulk.status == 0, "\(bulk.stderr)")
    let byHand = try cli.run(["render", "hand.json", "--out", "hand"])
    #expect(byHand.status == 0, "\(byHand.stderr)")
    for name in ["a.png", "b.png", "sub/c.png"] {
      #expect(try bytes(cli, "bulk/" + name) == bytes(cli, "hand/" + name), "\(name)")
    }
    let ids = try String(contentsOfFile: cli.path("bulk.jsonl"), encoding: .utf8).split(separator: "\n").compactMap {
      line -> String? in
      let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return object?["id"] as? String
    }
    #expect(ids.sorted() == ["wm/a.jpg", "wm/b.jpg", "wm/sub/c.jpg"])
  }

  @Test func shardsAtOnceRenderWhatOneRunRenders() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try cli.jpeg("in/d.jpg", width: 70, height: 50, rgb: [90, 90, 90])
    // A listed job after the job over many photos takes its place after the four photos.
    try cli.write(
      "bulk.json",
      #"{"version": 1, "jobs": [{"id": "wm", "photos": "in/**/*.jpg", "output": "{dir}/{stem}.png", \#(Self.script)},"#
        + #"{"id": "one", "base": "in/a.jpg", "output": "one.png"}]}"#)
    let whole = try cli.run(["render", "bulk.json", "--out", "whole", "--quiet"])
    #expect(whole.status == 0, "\(whole.stderr)")
    let shards = try (0..<2).map { k in
      let process = Process()
      process.executableURL = CommandRunner.executable
      process.arguments = ["render", "bulk.json", "--out", "parts", "--shard", "\(k)/2", "--report", "r\(k).jsonl"]
      process.currentDirectoryURL = cli.url
      process.standardError = FileHandle.nullDevice
      try process.run()
      return process
    }
    for process in shards { process.waitUntilExit() }
    #expect(shards.map(\.terminationStatus) == [0, 0])
    for name in ["a.png", "b.png", "d.png", "sub/c.png", "one.png"] {
      #expect(try bytes(cli, "parts/" + name) == bytes(cli, "whole/" + name), "\(name)")
    }
    // Places 0..4: a, b, d, sub/c, one; shard 0 has the even places.
    let report = try String(contentsOfFile: cli.path("r0.jsonl"), encoding: .utf8)
    #expect(report.contains("\"wm/a.jpg\"") && report.contains("\"wm/d.jpg\"") && report.contains("\"one\""))
    #expect(!report.contains("\"wm/b.jpg\"") && !report.contains("\"wm/sub/c.jpg\""))
  }

  @Test func resumeSkipsTheMadeJobsDoneAndRendersAPhotoAddedSince() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try cli.write(
      "bulk.json",
      #"{"version": 1, "jobs": [{"id": "wm", "photos": "in/*.jpg", "output": "{stem}.png", \#(Self.script)}]}"#)
    #expect(try cli.run(["render", "bulk.json", "--out", "o", "--resume", "--quiet"]).status == 0)
    try cli.jpeg("in/added.jpg", width: 50, height: 50, rgb: [10, 10, 10])
    let again = try cli.run(["render", "bulk.json", "--out", "o", "--resume", "--report", "-", "--quiet"])
    #expect(again.status == 0, "\(again.stderr)")
    let lines = again.stdout.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines.filter { $0.contains("\"skipped\"") }.count == 2)
    #expect(lines.contains { $0.contains("\"wm/added.jpg\"") && $0.contains("\"ok\"") })
  }

  @Test func aListOnStandardInputIsReadOnce() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try cli.write("list.txt", "in/b.jpg\nin/sub/c.jpg\n")
    try cli.write(
      "bulk.json",
      #"{"version": 1, "jobs": [{"id": "wm", "photos": {"list": "-"}, "output": "{dir}/{stem}.png", \#(Self.script)}]}"#
    )
    let result = try cli.run(
      ["render", "bulk.json", "--out", "o", "--report", "-", "--quiet"], redirections: "< list.txt")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: cli.path("o/in/b.png")))
    #expect(FileManager.default.fileExists(atPath: cli.path("o/in/sub/c.png")))
    #expect(!FileManager.default.fileExists(atPath: cli.path("o/in/a.png")))
    #expect(result.stdout.split(separator: "\n").count == 2)
  }

  @Test func validateCountsThePhotosAndRefusesTwoPhotosWritingOneFile() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try cli.write(
      "ok.json", #"{"version": 1, "jobs": [{"id": "wm", "photos": "in/**/*.jpg", \#(Self.script)}]}"#)
    let ok = try cli.run(["validate", "ok.json"])
    #expect(ok.status == 0, "\(ok.stderr)")
    #expect(ok.stderr.contains("valid (3 jobs, 3 of them made from jobs over many photos)"), "\(ok.stderr)")
    try cli.jpeg("in/a.jpeg", width: 20, height: 20, rgb: [1, 2, 3])
    try cli.write("clash.json", #"{"version": 1, "jobs": [{"id": "wm", "photos": "in/*", "output": "{stem}.jpg"}]}"#)
    for command in ["validate", "render"] {
      let clash = try cli.run(command == "render" ? [command, "clash.json", "--out", "o"] : [command, "clash.json"])
      #expect(clash.status == 2)
      #expect(
        clash.stderr.contains("job \"wm/a.jpg\"") && clash.stderr.contains("job \"wm/a.jpeg\""), "\(clash.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: cli.path("o/a.jpg")))
    try cli.write("none.json", #"{"version": 1, "jobs": [{"id": "wm", "photos": "in/*.webp"}]}"#)
    let none = try cli.run(["render", "none.json", "--out", "o"])
    #expect(none.status == 2)
    #expect(none.stderr.contains("\"in/*.webp\" matches no photo"), "\(none.stderr)")
  }

  @Test func explainDescribesEachPhotoWithItsResolvedPlacement() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try cli.write(
      "bulk.json",
      #"{"version": 1, "jobs": [{"id": "wm", "photos": "in/*.jpg", "stamps": [{"id": "s", "image": "stamp.png", "#
        + #""photoCenter": [0.25, 0.75], "photoWidth": 0.5}]}]}"#)
    let result = try cli.run(["explain", "bulk.json", "--job", "wm/b.jpg"])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    let jobs = json?["jobs"] as? [[String: Any]]
    #expect(jobs?.count == 1)
    let stamp = (jobs?.first?["stamps"] as? [[String: Any]])?.first
    // b.jpg is 96 x 64: the centre at (0.25 * 96, 0.75 * 64), the stamp half the photo's width across.
    #expect((stamp?["center"] as? [Double]) == [24, 48])
    #expect((stamp?["size"] as? [Double])?.first == 48)
    let all = try cli.run(["explain", "bulk.json", "--job", "wm"])
    #expect(all.stdout.contains("\"wm/a.jpg\"") && all.stdout.contains("\"wm/b.jpg\""))
  }

  @Test func scriptAppliesOneJobToThePhotosNamed() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try cli.write(
      "job.json", #"{"version": 1, "jobs": [{"id": "rec", "base": "in/a.jpg", "output": "x.png", \#(Self.script)}]}"#)
    try cli.write(
      "bulk.json", #"{"version": 1, "jobs": [{"id": "wm", "photos": "in/**/*.jpg", \#(Self.script)}]}"#)
    let result = try cli.run(["render", "--script", "job.json", "in/b.jpg", "in/sub/c.jpg", "--out", "s"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try cli.run(["render", "bulk.json", "--out", "g", "--quiet"]).status == 0)
    // The same job over the same photos: the same bytes, at {dir}/{stem}.jpg of the path as named.
    #expect(try bytes(cli, "s/in/b.jpg") == bytes(cli, "g/b.jpg"))
    #expect(try bytes(cli, "s/in/sub/c.jpg") == bytes(cli, "g/sub/c.jpg"))
    #expect(!FileManager.default.fileExists(atPath: cli.path("s/x.png")))
    let extra = try cli.run(["render", "job.json", "in/b.jpg", "--out", "s"])
    #expect(extra.status == 2)
    #expect(extra.stderr.contains("--script"))
  }

  @Test func aLinkFoundInTheFolderIsOpenedOnlyWhenTheInputRootHoldsItsTarget() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try FileManager.default.createDirectory(atPath: cli.path("outside"), withIntermediateDirectories: true)
    try cli.jpeg("outside/t.jpg", width: 60, height: 40, rgb: [120, 60, 30])
    try FileManager.default.createSymbolicLink(atPath: cli.path("in/l.jpg"), withDestinationPath: "../outside/t.jpg")
    try cli.write(
      "bulk.json",
      #"{"version": 1, "jobs": [{"id": "wm", "photos": "in/*.jpg", "output": "{stem}.png", \#(Self.script)}]}"#)
    let refusal = "in/l.jpg: a symbolic link found in the photos' folder, not followed"
    let validate = try cli.run(["validate", "bulk.json"])
    #expect(validate.status == 2)
    #expect(validate.stderr.contains("jobs[0].base: job \"wm/l.jpg\": " + refusal), "\(validate.stderr)")
    // The link's job fails alone; the photos beside it are written.
    let render = try cli.run(["render", "bulk.json", "--out", "o", "--quiet"])
    #expect(render.status == 1)
    #expect(render.stderr.contains("job \"wm/l.jpg\": " + refusal), "\(render.stderr)")
    #expect(FileManager.default.fileExists(atPath: cli.path("o/a.png")))
    #expect(!FileManager.default.fileExists(atPath: cli.path("o/l.png")))
    // An input root holding the target (and the stamp): the link is followed, and renders what its target does.
    #expect(try cli.run(["validate", "bulk.json", "--input-root", "."]).status == 0)
    let allowed = try cli.run(["render", "bulk.json", "--out", "r", "--quiet", "--input-root", "."])
    #expect(allowed.status == 0, "\(allowed.stderr)")
    try cli.write(
      "target.json",
      #"{"version": 1, "jobs": [{"id": "t", "photos": "outside/*.jpg", "output": "{stem}.png", \#(Self.script)}]}"#)
    #expect(try cli.run(["render", "target.json", "--out", "t", "--quiet"]).status == 0)
    #expect(try bytes(cli, "r/l.png") == bytes(cli, "t/t.png"))
  }
}
