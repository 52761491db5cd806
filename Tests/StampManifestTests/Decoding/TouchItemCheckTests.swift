import StampCore
import Testing

@testable import StampManifest

/// What `stampcam import` checks each event against before it writes it: the decoder's own bounds and touch-stream
/// rules, and one job's limits.
@Suite("Touch item check: the manifest's rules, one event at a time")
struct TouchItemCheckTests {
  static func event(_ t: Double, _ id: Int, _ phase: TouchPhase, x: Double = 10) -> TouchEvent {
    TouchEvent(t: t, id: id, phase: phase, location: StampPoint(x, 20))
  }

  /// The same words the decoder reports for the same values (`ManifestWalker.touches`).
  @Test func theDecodersRulesApply() {
    var check = TouchItemCheck()
    #expect(check.problem(with: Self.event(0, 0, .began), textBytes: 50) == nil)
    #expect(check.problem(with: Self.event(-1, 0, .moved), textBytes: 50) == "t -1 is too small (at least 0)")
    var far = TouchItemCheck()
    #expect(
      far.problem(with: Self.event(0, 0, .began, x: 1e300), textBytes: 50) == "x 1e+300 is too large (at most 1000000)")
    var twice = TouchItemCheck()
    _ = twice.problem(with: Self.event(0, 3, .began), textBytes: 50)
    #expect(
      twice.problem(with: Self.event(0.1, 3, .began), textBytes: 50) == "id: touch 3 begins again while it is down")
    var back = TouchItemCheck()
    _ = back.problem(with: Self.event(1, 0, .began), textBytes: 50)
    #expect(back.problem(with: Self.event(0.5, 0, .moved), textBytes: 50) == "t: time goes backwards (0.50 after 1.00)")
  }

  /// Limits of 2 events: the third is refused. 40 bytes: one 10-byte event makes `{"touches": [`, a line end, two
  /// spaces, the event, a line end and `]}`: 14 + 2 + 10 + 3 = 29; a second adds `,`, a line end, two spaces and
  /// itself: 43, over 40.
  @Test func theJobsLimitsApply() {
    var count = TouchItemCheck(limits: Limits(maxTouchEvents: 2))
    #expect(count.problem(with: Self.event(0, 0, .began), textBytes: 10) == nil)
    #expect(count.problem(with: Self.event(0.1, 0, .moved), textBytes: 10) == nil)
    #expect(
      count.problem(with: Self.event(0.2, 0, .ended), textBytes: 10)
        == "more than 2 touch events, the most one job of a manifest holds")
    var bytes = TouchItemCheck(limits: Limits(maxBytes: 40))
    #expect(bytes.problem(with: Self.event(0, 0, .began), textBytes: 10) == nil)
    #expect(bytes.bytes == 29)
    #expect(
      bytes.problem(with: Self.event(0.1, 0, .moved), textBytes: 10)
        == "the touches item would be over 40 bytes, the most a manifest holds")
  }
}
