import Foundation
import StampCore
import Testing

@testable import StampRender

/// `JobControl`: a stopped job fails on either render path with the reason, naming the photo, and leaves nothing.
struct JobControlTests {
  @Test(arguments: ["out.jpg", "out.png"])
  func aStoppedJobFailsWithTheReasonAndLeavesNothing(_ output: String) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.jpeg("base.jpg", width: 64, height: 48, subsampling: .half) { Fixtures.texture($0, $1) }
    let stamp = try fixtures.solid("red.png", width: 16, height: 16, pixel: [230, 20, 20, 255])
    let placement = PlacedStamp(id: "a", center: StampPoint(30, 30), size: StampSize(16, 16), scale: 1, rotation: 0)
    let plan = RenderPlan(base: base, stamp: stamp, placement: placement)
    let renderer = Renderer()
    let control = JobControl()
    control.stop(because: "stopped for the test")
    do {
      _ = try renderer.forJob(JobContext(control: control)).render(plan, to: fixtures.path(output))
      Issue.record("a stopped job rendered")
    } catch {
      // The reason alone: the file being worked on (the photo, or the stamp) is not at fault.
      #expect("\(error)" == "stopped for the test")
    }
    #expect(try fixtures.files() == ["base.jpg", "red.png"])
    // The stamp was not remembered as failing: the next job draws it.
    try renderer.render(plan, to: fixtures.path(output))
  }

  /// The flag libjpeg's progress monitor reads stops the JPEG path in the middle of its work.
  @Test func theJPEGCodecStopsWhenItsFlagIsSet() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.jpeg("base.jpg", width: 64, height: 48, subsampling: .half) { Fixtures.texture($0, $1) }
    let codec = try #require(JPEGCodec())
    let control = JobControl()
    codec.stop(on: control)
    _ = try codec.open(base)
    control.stop(because: "stopped")
    #expect(throws: RenderError.self) { try codec.readCoefficients() }
    codec.stop(on: nil)
    _ = try codec.open(base)
    try codec.readCoefficients()
  }

  /// A step that ran on past the stop (libwebp's encoder cannot be interrupted) is told, with how late it ended.
  @Test func aStepThatEndedLateIsToldWithHowLate() throws {
    let control = JobControl()
    control.stop(because: "stopped after 8 s")
    let checkedAt = DispatchTime.now()
    func message(after seconds: Double) -> String {
      do {
        try control.checkpoint("photo.jpg", now: checkedAt + seconds)
        return "no error"
      } catch {
        return "\(error)"
      }
    }
    #expect(message(after: 0) == "stopped after 8 s")
    #expect(message(after: 5) == "stopped after 8 s; the step in flight could not be interrupted and ended 5.0 s later")
    // A clock read before the stop (never in use) is not a lateness.
    #expect(message(after: -5) == "stopped after 8 s")
  }
}
