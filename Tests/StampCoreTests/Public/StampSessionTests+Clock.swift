import StampCore
import Testing

/// The session's clock: taps that fire as time passes with no new touch.
extension StampSessionTests {
  @Test("a single tap is reported once the clock passes doubleTapInterval after its lift")
  func singleTapWaitsForTheClock() throws {
    var session = try starSession()
    try session.feed([touch(0, 1, .began, 100, 100)])
    try session.feed([touch(0.1, 1, .ended, 100, 100)])
    #expect(session.advance(to: 0.3).isEmpty)
    // Due at 0.1 + 0.35 = 0.45, at the tap's image point (200, 200).
    let fired = session.advance(to: 0.46)
    #expect(fired.map(\.kind) == [.tap])
    #expect(fired.map(\.at) == [StampPoint(200, 200)])
    #expect(close(try #require(fired.first).t, 0.45))
    #expect(session.endItem().isEmpty)
  }

  @Test("a single tap held back by a second touch fires once that touch has been down longer than a tap lasts")
  func heldTapExpiresWithTheClock() throws {
    var session = try starSession()
    try session.feed([touch(0, 1, .began, 100, 100)])
    try session.feed([touch(0.1, 1, .ended, 100, 100)])
    // A second touch 5 points away at 0.2, before the deadline 0.45: it may be a double tap, so the tap waits.
    try session.feed([touch(0.2, 2, .began, 105, 100)])
    #expect(session.advance(to: 0.6).isEmpty)
    // Down longer than tapMaxDuration (0.5) by 0.75: the held tap fires at 0.2 + 0.5, where the first touch was.
    let fired = session.advance(to: 0.75)
    #expect(fired.map(\.kind) == [.tap])
    #expect(fired.map(\.at) == [StampPoint(200, 200)])
    #expect(close(try #require(fired.first).t, 0.7))
  }

  @Test("the clock that advance moves is the one frames are checked against")
  func advanceMovesTheClock() throws {
    var session = try starSession()
    session.advance(to: 1)
    #expect(
      throws: ReplayError.invalidTouches(
        item: 0, issues: [TouchStreamIssue(index: 0, field: "t", message: "time goes backwards (0.90 after 1.00)")])
    ) { try session.feed([touch(0.9, 1, .began, 10, 10)]) }
    #expect(session.advance(to: .nan).isEmpty)
    try session.feed([touch(1, 1, .began, 10, 10)])
  }
}
