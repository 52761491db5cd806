import Testing

@testable import StampCore

/// A 100 x 100 stamp "s" centred on (500, 500) of a 1000 x 1000 photo with no view: it spans 450...550, and view
/// points are image pixels.
private let stampS = square("s", at: StampPoint(500, 500))

/// A session over that photo, with the stamp or without it.
private func session(stamps: [StampSpec] = [stampS]) throws -> StampSession {
  try StampSession(imageSize: StampSize(1000, 1000), stamps: stamps)
}

/// A realistic two-finger tap: fingers land 80 points apart at (460, 500) and (540, 500), jitter
/// by 5 points each at 0.05 s, to (463, 504) (3-4-5) and (536, 497) (4-3-5), and lift there at 0.12 s. Each finger
/// stays within 5 of where it landed: inside the 10-point tap slop and the 10-point pinch slop. Without a threshold
/// the span 80 -> |(73, -7)| = sqrt(5378) = 73.33 would scale a stamp by 0.917 and turn it by -5.5 degrees.
private let jitteryTwoFingerTap = [
  touch(0, 1, .began, 460, 500), touch(0, 2, .began, 540, 500),
  touch(0.05, 1, .moved, 463, 504), touch(0.05, 2, .moved, 536, 497),
  touch(0.12, 1, .ended, 463, 504), touch(0.12, 2, .ended, 536, 497),
]

@Suite("The pinch threshold: a two-finger touch pinches only once a finger passes pinchSlop")
struct PinchThresholdTests {
  @Test("a two-finger tap's jitter on a stamp changes no stamp; it is a two-finger tap and no pinch")
  func jitterOnAStampChangesNothing() throws {
    let result = try replay(plainScene(stamps: [stampS], [.touches(jitteryTwoFingerTap)]))
    #expect(result.stamps[0].scale == 1 && result.stamps[0].rotation == 0)
    #expect(result.stamps[0].center == StampPoint(500, 500))
    #expect(result.gestures.map(\.kind) == [.twoFingerTap])
    // At zoom 1 (the smallest) the zoom-out it asks for is clamped away: the view is the whole photo.
    #expect(result.viewport.zoom == 1)
  }

  @Test("on the background the jitter moves the view by nothing but the two-finger tap's zoom-out")
  func jitterOnTheBackgroundOnlyZoomsOut() throws {
    // A double tap at (500, 500) zooms to 4 with image (500, 500) at the view's centre: offset 4 x 500 - 500 =
    // 1500. The fingers lift at (463, 504) and (536, 497), midpoint (499.5, 500.5): image ((499.5 + 1500) / 4,
    // (500.5 + 1500) / 4) = (499.875, 500.125). The zoom-out goes to 4 / 1.5 = 8/3 centred there: the visible
    // square is 1000 / (8/3) = 375 wide, from 499.875 - 187.5 = 312.375 and 500.125 - 187.5 = 312.625.
    let result = try replay(plainScene([.doubleTap(StampPoint(500, 500)), .touches(jitteryTwoFingerTap)]))
    #expect(result.gestures.map(\.kind) == [.doubleTap, .twoFingerTap])
    #expect(close(result.viewport.zoom, 8.0 / 3))
    #expect(close(result.viewport.visible, StampRect(x: 312.375, y: 312.625, width: 375, height: 375)))
  }

  @Test("a pinch that starts loses none of its motion: it catches up on everything since the fingers landed")
  func pinchCatchesUp() throws {
    var live = try session()
    try live.feed([touch(0, 1, .began, 460, 500), touch(0, 2, .began, 540, 500)])
    // Finger 2 moves 5 points (80 -> 85 apart): within the 10-point slop, nothing happens yet.
    #expect(try live.feed([touch(0.05, 2, .moved, 545, 500)]).isEmpty)
    #expect(live.stamps[0].scale == 1)
    // Now 20 points from where it landed: the pinch starts, and the stamp takes the whole 80 -> 100: x1.25.
    let started = try live.feed([touch(0.1, 2, .moved, 560, 500)])
    #expect(started == [RecognizedGesture(kind: .pinch, t: 0.1, at: StampPoint(510, 500), target: "s")])
    #expect(close(live.stamps[0].scale, 1.25) && live.stamps[0].rotation == 0)
    // Once started, every frame counts, however small: 100 -> 102 apart is x1.02 more, 1.275 in all.
    try live.feed([touch(0.15, 2, .moved, 562, 500)])
    #expect(close(live.stamps[0].scale, 1.275))
  }

  @Test("the catch-up keeps the per-step clamp: out to 2.5x (clamped to 2) then in by half ends at 1, not 1.25")
  func catchUpKeepsThePerStepClamp() throws {
    var live = try session()
    // Fingers land 10 apart at (495, 500) and (505, 500). At 0.05 s they are at 490 and 515 (moved 5 and 10: still
    // within the slop) and 25 apart: x2.5, clamped to 2 at that step, but not shown yet.
    try live.feed([touch(0, 1, .began, 495, 500), touch(0, 2, .began, 505, 500)])
    try live.feed([touch(0.05, 1, .moved, 490, 500), touch(0.05, 2, .moved, 515, 500)])
    #expect(live.stamps[0].scale == 1)
    // At 0.1 s they are at 505 and 517.5 (finger 2 is 12.5 from where it landed: it starts) and 12.5 apart:
    // x0.5 on the clamped 2 gives 1. Taken from the landing in one step it would be 12.5 / 10 = 1.25.
    try live.feed([touch(0.1, 1, .moved, 505, 500), touch(0.1, 2, .moved, 517.5, 500)])
    #expect(close(live.stamps[0].scale, 1))
  }

  struct Start: Sendable, CustomTestStringConvertible {
    var testDescription: String
    /// Finger 2's point at 0.05 s (within the slop) and at 0.1 s (past it); finger 1 stays at (460, 500).
    var within: StampPoint
    var past: StampPoint
    var scale: Double
    var rotation: Double
  }

  /// Finger 2 starts at (540, 500), 80 from finger 1, which stays put. A pure turn keeps the span 80: swung 6
  /// degrees about finger 1 it has moved a chord of 2 x 80 x sin 3 = 8.37 points (within), swung 30 degrees
  /// 2 x 80 x sin 15 = 41.4 (past). A pure pinch moves it along the line: 8 points (within), then 40 (past), so
  /// the span goes 80 -> 120: x1.5.
  static let starts = [
    Start(
      testDescription: "a pure rotation (the span stays 80)",
      within: StampPoint(460 + 80 * cMathCos(6 / degreesPerRadian), 500 + 80 * cMathSin(6 / degreesPerRadian)),
      past: StampPoint(460 + 80 * cMathCos(30 / degreesPerRadian), 500 + 80 * cMathSin(30 / degreesPerRadian)),
      scale: 1, rotation: 30),
    Start(
      testDescription: "a pure pinch (the line keeps its direction)", within: StampPoint(548, 500),
      past: StampPoint(580, 500), scale: 1.5, rotation: 0),
  ]

  @Test("pure rotations and pure pinches both start, and then show their whole motion", arguments: starts)
  func bothKindsStart(_ start: Start) throws {
    var live = try session()
    try live.feed([touch(0, 1, .began, 460, 500), touch(0, 2, .began, 540, 500)])
    try live.feed([touch(0.05, 2, .moved, start.within.x, start.within.y)])
    #expect(live.stamps[0].scale == 1 && live.stamps[0].rotation == 0)
    let started = try live.feed([touch(0.1, 2, .moved, start.past.x, start.past.y)])
    #expect(started.map(\.kind) == [.pinch])
    #expect(close(live.stamps[0].scale, start.scale) && close(live.stamps[0].rotation, start.rotation))
  }

  @Test("pinchSlop is a setting: at 0 any motion starts the pinch, and a pinch that started is no two-finger tap")
  func zeroSlopPinchesAtOnce() throws {
    var settings = GestureSettings()
    settings.pinchSlop = 0
    let result = try replay(plainScene(stamps: [stampS], [.touches(jitteryTwoFingerTap)], settings: settings))
    // 80 -> sqrt(5378) apart: x0.91670.
    #expect(close(result.stamps[0].scale, 5378.0.squareRoot() / 80))
    #expect(result.gestures.map(\.kind) == [.pinch])
  }

  @Test("a pinchSlop that is negative or not finite is refused before any replay")
  func badSlopIsRefused() {
    var settings = GestureSettings()
    settings.pinchSlop = -1
    #expect(
      throws: ReplayError.invalidScene(path: "settings.pinchSlop", message: "must be a number of at least 0, not -1.00")
    ) { try StampSession(imageSize: StampSize(10, 10), settings: settings) }
  }
}
