import Testing

@testable import StampCore

/// The session's deadline for timers, and what it keeps of a long session.
extension StampSessionTests {
  @Test("nextDeadline: a tap's lift time + doubleTapInterval, nil once it fired or a second tap made a double tap")
  func deadlineOfASingleTap() throws {
    var session = try starSession()
    #expect(session.nextDeadline == nil)
    try session.feed([touch(0, 1, .began, 100, 100)])
    #expect(session.nextDeadline == nil)
    try session.feed([touch(0.1, 1, .ended, 100, 100)])
    #expect(session.nextDeadline == 0.1 + 0.35)
    // At the deadline itself a touch may still make a double tap: the tap fires only once the clock is past it.
    #expect(session.advance(to: 0.1 + 0.35).isEmpty)
    #expect(session.nextDeadline == 0.1 + 0.35)
    #expect(session.advance(to: 0.46).map(\.kind) == [.tap])
    #expect(session.nextDeadline == nil)
    // Two taps 5 points apart: while the second is down the deadline is when it stops being a tap (its landing +
    // tapMaxDuration, 0.5); once it lifts, a double tap, and nothing waits.
    try feedTap(&session, 1, 2, 100, 100)
    try session.feed([touch(1.2, 3, .began, 105, 100)])
    #expect(session.nextDeadline == 1.2 + 0.5)
    #expect(try session.feed([touch(1.25, 3, .ended, 105, 100)]).map(\.kind) == [.doubleTap])
    #expect(session.nextDeadline == nil)
    // A second touch farther than doubleTapDistance (40) holds nothing back: the first tap's deadline stays.
    try feedTap(&session, 2, 4, 100, 100)
    try session.feed([touch(2.2, 5, .began, 300, 300)])
    #expect(session.nextDeadline == 2.1 + 0.35)
    #expect(session.advance(to: 2.5).map(\.kind) == [.tap])
    #expect(session.nextDeadline == nil)
  }

  /// Feeds drags `range` (drag n starts at n seconds): each one finger on the background in 3 frames 0.3 s apart
  /// (no taps), so one recognized gesture and three touches; an item ends every 1000 drags.
  func feedDrags(_ range: Range<Int>, into session: inout StampSession) throws {
    for index in range {
      let t = Double(index)
      try session.feed([touch(t, 1, .began, 20, 20)])
      try session.feed([touch(t + 0.3, 1, .moved, 50, 20)])
      try session.feed([touch(t + 0.6, 1, .ended, 50, 20)])
      if index % 1000 == 999 { session.endItem() }
    }
  }

  @Test("a session that keeps the last 3 gestures keeps 3 and no touches however long it runs; .all keeps all")
  func boundedHistory() throws {
    var bounded = try starSession(history: .last(3))
    try feedDrags(0..<5000, into: &bounded)
    #expect(bounded.gestures.count == 3)
    #expect(bounded.gestures.map(\.t) == [4997, 4998, 4999].map { $0 + 0.3 })
    #expect(bounded.script.isEmpty)
    // What the session holds: 3 gestures (the last call, an endItem, reported nothing), no touches; and after as
    // many drags again, not one item or storage slot more.
    let kept = bounded.retained
    #expect(kept.items == 3 && kept.touches == 0)
    try feedDrags(5000..<10000, into: &bounded)
    #expect(bounded.retained == kept)

    var none = try starSession(history: .none)
    try feedDrags(0..<2000, into: &none)
    #expect(none.gestures.isEmpty && none.script.isEmpty && none.retained.touches == 0 && none.retained.items == 0)

    // The control: the default keeps every gesture and every touch.
    var all = try starSession()
    try feedDrags(0..<2000, into: &all)
    #expect(all.gestures.count == 2000 && all.script.count == 2)
    #expect(all.retained.touches == 6000)
  }

  @Test("a negative history count is refused when the session is made")
  func negativeHistory() {
    #expect(throws: ReplayError.invalidScene(path: "history", message: "must keep 0 or more gestures, not -1")) {
      try StampSession(imageSize: StampSize(10, 10), history: .last(-1))
    }
  }
}
