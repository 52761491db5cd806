import Dispatch
import Foundation
import StampCore
import StampFiles
import Synchronization
import Testing

@testable import StampRender

/// `JobContext`: two jobs in one process, each with its own context, share nothing their maker did not give both.
struct JobContextTests {
  /// A plan drawing a red stamp on a 64 x 48 JPEG photo.
  static func plan(_ fixtures: Fixtures) throws -> RenderPlan {
    let base = try fixtures.jpeg("base.jpg", width: 64, height: 48, subsampling: .half) { Fixtures.texture($0, $1) }
    let stamp = try fixtures.solid("red.png", width: 16, height: 16, pixel: [230, 20, 20, 255])
    let placement = PlacedStamp(id: "a", center: StampPoint(30, 30), size: StampSize(16, 16), scale: 1, rotation: 0)
    return RenderPlan(base: base, stamp: stamp, placement: placement)
  }

  /// Two jobs rendering at once, on both paths: the one whose control is stopped fails with its reason and leaves
  /// nothing; the other, on another thread at the same time, writes its output.
  @Test(arguments: ["jpg", "png"])
  func stoppingOneJobLeavesTheOtherRunning(_ format: String) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let plan = try Self.plan(fixtures)
    let renderer = Renderer()
    let (stopped, running) = (JobControl(), JobControl())
    stopped.stop(because: "stopped for the test")
    let contexts = [JobContext(control: stopped), JobContext(control: running)]
    let results = Mutex([String](repeating: "", count: 2))
    DispatchQueue.concurrentPerform(iterations: 2) { k in
      do {
        try renderer.forJob(contexts[k]).render(plan, to: fixtures.path("out\(k).\(format)"))
        results.withLock { $0[k] = "written" }
      } catch {
        results.withLock { $0[k] = "\(error)" }
      }
    }
    #expect(results.withLock { $0 } == ["stopped for the test", "written"])
    #expect(try fixtures.files() == ["base.jpg", "out1.\(format)", "red.png"])
    #expect(running.stopReason == nil)
  }

  /// Each context's temporary files are its own: one job's cleanup (a signal's) removes its staged output and leaves
  /// the other job's, which still commits.
  @Test func oneContextsCleanupLeavesTheOthersTemporaries() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let plan = try Self.plan(fixtures)
    let (first, second) = (JobContext(), JobContext())
    let mine = try Renderer().forJob(first).stage(plan, to: OutputTarget(path: fixtures.path("mine.png")))
    let theirs = try Renderer().forJob(second).stage(plan, to: OutputTarget(path: fixtures.path("theirs.png")))
    #expect(first.temporaries.inProgress == [fixtures.path("mine.png")])
    #expect(second.temporaries.inProgress == [fixtures.path("theirs.png")])
    first.temporaries.removeAll()
    #expect(first.temporaries.inProgress.isEmpty)
    let temporaries = try fixtures.files().filter { $0.contains(".stampcam-") }
    #expect(
      temporaries.count == 1 && temporaries.allSatisfy { $0.hasPrefix(".theirs.png.stampcam-") }, "\(temporaries)")
    try theirs.file.commit()
    #expect(try fixtures.files() == ["base.jpg", "red.png", "theirs.png"])
    #expect(throws: FileError.self) { try mine.file.commit() }
  }
}
