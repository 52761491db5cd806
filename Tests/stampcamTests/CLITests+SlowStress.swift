import Foundation
import Testing

/// Stress runs that take longer than the rest of the suite put together. `scripts/test` skips this suite so that the
/// everyday test command stays fast; `scripts/test-slow` runs it, and CI (`.ci/run`) runs both.
@Suite("slow stress runs")
struct SlowStressTests {
  /// Two jobs in flight, each shrinking an 8-bit stamp, hundreds of times: libvips' Orc code, freed from two
  /// threads at once, used to corrupt the heap (about one run in two of 1,000 such jobs crashed). Every job must
  /// be written and the process must end normally.
  @Test func manyConcurrentJobsWithShrunkStampsRunToTheEnd() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try cli.ppm("photo.ppm", width: 48, height: 32, rgb: [30, 60, 90])
    try cli.ppm("stamp.ppm", width: 256, height: 256) { x, y in [UInt8(x), UInt8(y), 128] }
    let jobs = (0..<800).map { i in
      #"{"id": "j\#(i)", "base": "photo.ppm", "output": "o/j\#(i).png", "stamps": [{"id": "s", "image": "stamp.ppm", "center": [\#(i % 40 + 4), 16], "width": 12, "rotation": \#(i % 90)}]}"#
    }
    try cli.write("m.jsonl", jobs.joined(separator: "\n") + "\n")
    let result = try cli.run(["render", "m.jsonl", "--out", "out", "--jobs", "2"])
    #expect(result.status == 0, "\(result.stderr.suffix(500))")
    #expect(cli.files("out").count == 800)
  }
}
