import Testing

@testable import StampCore

/// Replays one recorded trace on a 1000 x 1000 photo with no view (view points are image pixels).
private func gestures(_ events: [TouchEvent], settings: GestureSettings = GestureSettings()) throws
  -> [RecognizedGesture]
{
  try replay(plainScene([.touches(events)], settings: settings)).gestures
}

/// A tap at (50, 50), down at 0 and lifted at 0.05 s: its single tap would fire at 0.4 s.
private let firstTap = [touch(0, 1, .began, 50, 50), touch(0.05, 1, .ended, 50, 50)]

extension TapRecognizerTests {
  @Test("every threshold is 'at most': exactly the slop, the duration, the interval and the distance still count")
  func boundaries() throws {
    // Binary fractions keep the times exact: down 0, up 0.5 = tapMaxDuration; a finger 10 points out = tapSlop.
    let longest = try gestures([touch(0, 1, .began, 100, 100), touch(0.5, 1, .ended, 100, 100)])
    #expect(longest.map(\.kind) == [.tap])
    let widest = try gestures([
      touch(0, 1, .began, 100, 100), touch(0.0625, 1, .moved, 106, 108), touch(0.125, 1, .ended, 110, 100),
    ])
    #expect(widest.map(\.kind) == [.tap])
    // The second touch begins 0.25 s (doubleTapInterval) after the first ends, 40 points (doubleTapDistance) away.
    var settings = GestureSettings()
    settings.doubleTapInterval = 0.25
    let double = try gestures(
      [
        touch(0, 1, .began, 100, 100), touch(0.125, 1, .ended, 100, 100),
        touch(0.375, 2, .began, 124, 132), touch(0.5, 2, .ended, 124, 132),
      ], settings: settings)
    #expect(double.map(\.kind) == [.doubleTap])
  }

  @Test("tapSlop 0: a finger that does not move taps, one that moves half a point does not")
  func zeroSlop() throws {
    var settings = GestureSettings()
    settings.tapSlop = 0
    let still = try gestures([touch(0, 1, .began, 100, 100), touch(0.1, 1, .ended, 100, 100)], settings: settings)
    #expect(still.map(\.kind) == [.tap])
    let moved = try gestures([touch(0, 1, .began, 100, 100), touch(0.1, 1, .ended, 100.5, 100)], settings: settings)
    #expect(!moved.contains { $0.kind == .tap })
  }

  @Test("a tap followed by a drag: the tap fires in the frame where the drag leaves the slop")
  func pendingTapThenDrag() throws {
    // The second touch lands on the tap at 0.1 s, so the single tap waits for it; at 0.15 s it is 20 points out
    // (past the 10-point slop), so it cannot be a second tap: the tap is reported at 0.15 s, then the drag.
    let found = try gestures(
      firstTap + [
        touch(0.1, 2, .began, 50, 50), touch(0.15, 2, .moved, 70, 50), touch(0.2, 2, .moved, 90, 50),
        touch(0.25, 2, .ended, 90, 50),
      ])
    try #require(found.map(\.kind) == [.tap, .drag])
    #expect(close(found[0].t, 0.15))
    #expect(found[0].at == StampPoint(50, 50))
    #expect(close(found[1].t, 0.15))
  }

  @Test("a tap followed by a hold: the tap fires when the hold outlasts tapMaxDuration")
  func pendingTapThenHold() throws {
    // The second touch lands at 0.1 s and stays until 0.9 s: at 0.1 + 0.5 = 0.6 s it is too long for a tap.
    let found = try gestures(firstTap + [touch(0.1, 2, .began, 50, 50), touch(0.9, 2, .ended, 50, 50)])
    try #require(found.map(\.kind) == [.tap])
    #expect(close(found[0].t, 0.6))
    #expect(found[0].at == StampPoint(50, 50))
  }

  @Test("a tap followed by a touch that a second finger joins: the tap fires when the finger lands")
  func pendingTapThenTwoFingers() throws {
    // Touch 2 lands on the tap at 0.1 s; touch 3 joins at 0.2 s: the tap fires then. Both lift at 0.3 s as taps:
    // a two-finger tap at their midpoint (100, 50).
    let found = try gestures(
      firstTap + [
        touch(0.1, 2, .began, 50, 50), touch(0.2, 3, .began, 150, 50), touch(0.3, 2, .ended, 50, 50),
        touch(0.3, 3, .ended, 150, 50),
      ])
    try #require(found.map(\.kind) == [.tap, .twoFingerTap])
    #expect(close(found[0].t, 0.2))
    #expect(found[1].at == StampPoint(100, 50))
  }
}
