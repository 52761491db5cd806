import Foundation
import Testing

/// `validate` and `explain` as a user runs them.
@Suite struct CLITests {
  /// Stamp "a" (20 x 20 pixels) lies under "b" (40 x 40) at the same centre, so a drag that begins on a's centre
  /// touches b: render cannot play it.
  static let coveredDrag = #"""
    {"id": "covered", "base": "photo.ppm", "output": "covered.png",
     "stamps": [{"id": "a", "image": "a.ppm", "center": [50, 50]}, {"id": "b", "image": "b.ppm", "center": [50, 50]}],
     "gestures": [{"drag": {"on": "a", "by": [10, 0]}}]}
    """#

  static func folder() throws -> CommandRunner {
    let cli = try CommandRunner()
    try cli.ppm("photo.ppm", width: 200, height: 100, rgb: [10, 20, 30])
    try cli.ppm("a.ppm", width: 20, height: 20, rgb: [200, 0, 0])
    try cli.ppm("b.ppm", width: 40, height: 40, rgb: [0, 200, 0])
    return cli
  }

  /// validate replays the gestures as render does (from the images' headers), so the covered stamp is found
  /// before rendering: it passed validate before, then failed in render.
  @Test func validateReportsADragOnACoveredStamp() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try cli.write("m.json", "{\"version\": 1, \"jobs\": [\n\(Self.coveredDrag)\n]}")
    let result = try cli.run(["validate", "m.json"])
    #expect(result.status == 2)
    #expect(
      result.stderr.contains(
        "stampcam: error: m.json:2: jobs[0].gestures[0]: stamp \"a\" is covered by the stamps above it"))
    let render = try cli.run(["render", "m.json", "--out", "out", "--quiet"])
    #expect(render.status == 1 && render.stderr.contains("stamp \"a\" is covered"))
  }

  /// A stamp 2000 pixels wide at scale 1000 would be 2,000,000 pixels across: render refused it only when drawing
  /// it; validate now finds it in the replayed scene. At width 20 (20,000 across) the manifest is valid.
  @Test func validateReportsAStampOverAMillionPixelsAcross() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    for width in [20, 2000] {
      try cli.write(
        "m.json",
        #"{"version": 1, "jobs": [{"base": "photo.ppm", "stamps": [{"id": "a", "image": "a.ppm", "center": [5, 5], "#
          + #""width": \#(width), "scale": 1000}], "settings": {"scaleRange": [1, 1000]}}]}"#)
      let result = try cli.run(["validate", "m.json"])
      if width == 20 {
        #expect(result.status == 0)
      } else {
        #expect(result.status == 2)
        #expect(
          result.stderr.contains(
            "m.json:1: jobs[0].stamps[0]: it would be 2000000 pixels across, over the limit of 1000000"))
      }
    }
  }

  /// explain describes every job it can, puts `{"id", "error"}` in place of one it cannot, names it on stderr
  /// with the manifest and the job's line, and exits 1; it printed nothing at all before.
  @Test func explainPrintsTheGoodJobsAndAnErrorEntryForTheOther() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    let good = #"{"id": "good", "base": "photo.ppm", "stamps": [{"id": "a", "image": "a.ppm", "center": [30, 40]}]}"#
    let other = #"{"id": "other", "base": "photo.ppm"}"#
    try cli.write("m.json", "{\"version\": 1, \"jobs\": [\n\(good),\n\(Self.coveredDrag),\n\(other)\n]}")
    let result = try cli.run(["explain", "m.json"])
    #expect(result.status == 1)
    let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let jobs = try #require(root["jobs"] as? [[String: Any]])
    #expect(jobs.map { $0["id"] as? String } == ["good", "covered", "other"])
    let stamp = try #require((jobs[0]["stamps"] as? [[String: Any]])?.first)
    #expect(stamp["center"] as? [Double] == [30, 40])
    #expect(Set(jobs[1].keys) == ["id", "error"])
    #expect(
      jobs[1]["error"] as? String
        == "gestures[0]: stamp \"a\" is covered by the stamps above it where the gesture would begin")
    #expect(jobs[2]["viewport"] != nil)
    #expect(result.stderr.contains("stampcam: error: m.json:3: job \"covered\": gestures[0]: stamp \"a\" is covered"))
  }
}
