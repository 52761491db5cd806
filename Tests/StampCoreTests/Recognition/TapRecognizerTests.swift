import Testing

@testable import StampCore

/// Replays one recorded trace on a 1000 x 1000 photo with no view (view points are image pixels).
private func gestures(_ events: [TouchEvent], settings: GestureSettings = GestureSettings()) throws
  -> [RecognizedGesture]
{
  try replay(plainScene([.touches(events)], settings: settings)).gestures
}

@Suite("TapRecognizer: single, double and two-finger taps")
struct TapRecognizerTests {
  @Test("a single tap fires 0.35 s after its touch ends")
  func singleTapFiresLater() throws {
    let found = try gestures([touch(0, 1, .began, 100, 100), touch(0.1, 1, .ended, 102, 101)])
    #expect(found.count == 1)
    let tap = try #require(found.first)
    #expect(tap.kind == .tap)
    #expect(close(tap.t, 0.45))
    #expect(tap.at == StampPoint(102, 101))
    #expect(tap.target == nil)
  }

  @Test("a second tap beginning within 0.35 s cancels the pending single tap: a double tap")
  func doubleTapCancelsSingle() throws {
    let found = try gestures([
      touch(0, 1, .began, 100, 100), touch(0.1, 1, .ended, 100, 100),
      touch(0.3, 2, .began, 110, 100), touch(0.4, 2, .ended, 110, 100),
    ])
    #expect(found.map(\.kind) == [.doubleTap])
    #expect(close(found[0].t, 0.4))
    #expect(found[0].at == StampPoint(110, 100))
  }

  @Test("a second tap too far away is a single tap of its own; the first still fires")
  func farSecondTap() throws {
    let found = try gestures([
      touch(0, 1, .began, 100, 100), touch(0.1, 1, .ended, 100, 100),
      touch(0.3, 2, .began, 141, 100), touch(0.4, 2, .ended, 141, 100),
    ])
    #expect(found.map(\.kind) == [.tap, .tap])
    #expect(close(found[0].t, 0.45))
    #expect(close(found[1].t, 0.75))
  }

  @Test("a second tap beginning after 0.35 s: two single taps")
  func lateSecondTap() throws {
    let found = try gestures([
      touch(0, 1, .began, 100, 100), touch(0.1, 1, .ended, 100, 100),
      touch(0.5, 2, .began, 100, 100), touch(0.6, 2, .ended, 100, 100),
    ])
    #expect(found.map(\.kind) == [.tap, .tap])
    #expect(close(found[0].t, 0.45))
    #expect(close(found[1].t, 0.95))
  }

  @Test("a third tap after a double tap starts a new sequence: a single tap of its own")
  func tripleTap() throws {
    let found = try gestures([
      touch(0, 1, .began, 100, 100), touch(0.1, 1, .ended, 100, 100),
      touch(0.2, 1, .began, 100, 100), touch(0.3, 1, .ended, 100, 100),
      touch(0.4, 1, .began, 100, 100), touch(0.5, 1, .ended, 100, 100),
    ])
    // The double tap fires at 0.3 s; the third tap, lifted at 0.5 s, fires 0.35 s later.
    #expect(found.map(\.kind) == [.doubleTap, .tap])
    #expect(close(found[1].t, 0.85))
  }

  @Test(
    "too long, or moved past the slop: no tap",
    arguments: [
      [touch(0, 1, .began, 100, 100), touch(0.51, 1, .ended, 100, 100)],
      [touch(0, 1, .began, 100, 100), touch(0.05, 1, .moved, 110.5, 100), touch(0.1, 1, .ended, 100, 100)],
      [touch(0, 1, .began, 100, 100), touch(0.1, 1, .cancelled, 100, 100)],
    ])
  func notATap(_ events: [TouchEvent]) throws {
    #expect(try gestures(events).filter { $0.kind == .tap }.isEmpty)
  }

  @Test("two-finger tap, case 1: both lifted together, at the midpoint")
  func twoFingerTapTogether() throws {
    let found = try gestures([
      touch(0, 1, .began, 100, 100), touch(0.05, 2, .began, 200, 100),
      touch(0.2, 1, .ended, 100, 100), touch(0.2, 2, .ended, 200, 100),
    ])
    #expect(found.map(\.kind) == [.twoFingerTap])
    #expect(found[0].at == StampPoint(150, 100))
    #expect(close(found[0].t, 0.2))
  }

  @Test("two-finger tap, cases 2 and 3: lifted in turn, at the midpoint")
  func twoFingerTapInTurn() throws {
    let found = try gestures([
      touch(0, 1, .began, 100, 100), touch(0.05, 2, .began, 200, 120),
      touch(0.15, 2, .ended, 200, 120), touch(0.25, 1, .ended, 100, 100),
    ])
    #expect(found.map(\.kind) == [.twoFingerTap])
    #expect(found[0].at == StampPoint(150, 110))
    #expect(close(found[0].t, 0.25))
  }

  @Test("a third finger rules out the two-finger tap")
  func thirdFinger() throws {
    let found = try gestures([
      touch(0, 1, .began, 100, 100), touch(0.05, 2, .began, 200, 100), touch(0.1, 3, .began, 300, 100),
      touch(0.2, 1, .ended, 100, 100), touch(0.2, 2, .ended, 200, 100), touch(0.2, 3, .ended, 300, 100),
    ])
    #expect(found.isEmpty)
  }

  @Test("a finger lifted before the other comes down: two single touches, no two-finger tap")
  func noOverlap() throws {
    let found = try gestures([
      touch(0, 1, .began, 100, 100), touch(0.1, 1, .ended, 100, 100),
      touch(0.15, 2, .began, 200, 100), touch(0.25, 2, .ended, 200, 100),
    ])
    #expect(found.map(\.kind) == [.tap, .tap])
  }

  @Test("the thresholds come from the settings")
  func customThresholds() throws {
    var settings = GestureSettings()
    settings.doubleTapInterval = 0.1
    let found = try gestures(
      [
        touch(0, 1, .began, 100, 100), touch(0.1, 1, .ended, 100, 100),
        touch(0.3, 2, .began, 100, 100), touch(0.4, 2, .ended, 100, 100),
      ], settings: settings)
    #expect(found.map(\.kind) == [.tap, .tap])
    #expect(close(found[0].t, 0.2))
  }
}
