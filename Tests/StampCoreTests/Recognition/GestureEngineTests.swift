import Testing

@testable import StampCore

/// A 100 x 100 stamp "s" centred on (500, 500) of a 1000 x 1000 photo with no view: it spans 450...550.
private func replayed(_ events: [TouchEvent], locked: Bool = false) throws -> SceneResult {
  try replay(plainScene(stamps: [square("s", at: StampPoint(500, 500), locked: locked)], [.touches(events)]))
}

@Suite("GestureEngine: frames, re-anchoring and the sequence's target")
struct GestureEngineTests {
  @Test("events with the same t form one frame: two fingers sliding together do not pinch")
  func oneFrame() throws {
    // Taken event by event, A would first close to 10 points (scale clamped to 0.5), then B reopen to 100 (2.0).
    let result = try replayed([
      touch(0, 1, .began, 460, 500), touch(0, 2, .began, 560, 500),
      touch(0.1, 1, .moved, 550, 500), touch(0.1, 2, .moved, 650, 500),
      touch(0.2, 1, .ended, 550, 500), touch(0.2, 2, .ended, 650, 500),
    ])
    #expect(result.stamps[0].scale == 1)
  }

  @Test("a touch that did not move in a frame keeps its last point")
  func keepsLastPoint() throws {
    // A moves alone (span 150: x1.5), then B alone (span 180 from A's kept point: x1.2) = 1.8.
    let result = try replayed([
      touch(0, 1, .began, 460, 500), touch(0, 2, .began, 560, 500),
      touch(0.1, 1, .moved, 410, 500), touch(0.2, 2, .moved, 590, 500),
      touch(0.3, 1, .ended, 410, 500), touch(0.3, 2, .ended, 590, 500),
    ])
    #expect(close(result.stamps[0].scale, 1.8))
  }

  /// A and B pinch to 1.5; a third finger C comes down and moves (the pair is still A, B); A lifts; B and C go on.
  static let thirdFinger = [
    touch(0, 1, .began, 460, 500), touch(0, 2, .began, 560, 500), touch(0.1, 2, .moved, 610, 500),
    touch(0.2, 3, .began, 900, 500), touch(0.3, 3, .moved, 950, 520), touch(0.4, 1, .ended, 460, 500),
  ]

  @Test("a third finger added, then the first lifted: no jump")
  func reanchorNoJump() throws {
    // Without re-anchoring, the line B-C (350 long, tilted) against A-B (150, level) would jump the scale by 2.33
    // and the rotation by atan(20/350).
    let result = try replayed(Self.thirdFinger)
    #expect(close(result.stamps[0].scale, 1.5))
    #expect(result.stamps[0].rotation == 0)
  }

  @Test("after re-anchoring, the new pair goes on from where it was")
  func reanchorContinues() throws {
    // B (610, 500) and C (950, 520): C comes halfway to B along their line: (780, 510). 1.5 x 0.5 = 0.75.
    let events =
      Self.thirdFinger + [
        touch(0.5, 3, .moved, 780, 510), touch(0.6, 2, .ended, 610, 500), touch(0.6, 3, .ended, 780, 510),
      ]
    let result = try replayed(events)
    #expect(close(result.stamps[0].scale, 0.75))
    #expect(close(result.stamps[0].rotation, 0))
  }

  @Test("a pinch, then one finger lifted: the other drags the stamp on without a jump")
  func pinchThenDrag() throws {
    let result = try replayed([
      touch(0, 1, .began, 460, 500), touch(0, 2, .began, 560, 500), touch(0.1, 2, .moved, 610, 500),
      touch(0.2, 1, .ended, 460, 500), touch(0.3, 2, .moved, 640, 480), touch(0.4, 2, .ended, 640, 480),
    ])
    #expect(close(result.stamps[0].scale, 1.5))
    #expect(close(result.stamps[0].center, StampPoint(530, 480)))
    #expect(result.gestures.map(\.kind) == [.pinch, .drag])
  }

  @Test("the first finger picks the target: the second landing on the stamp does not")
  func firstFingerPicksTarget() throws {
    // A lands on the background, B on the stamp: the pair zooms the viewport and leaves the stamp alone.
    let result = try replayed([
      touch(0, 1, .began, 300, 500), touch(0, 2, .began, 500, 500),
      touch(0.1, 2, .moved, 700, 500), touch(0.2, 1, .ended, 300, 500), touch(0.2, 2, .ended, 700, 500),
    ])
    #expect(result.stamps[0].scale == 1)
    #expect(close(result.viewport.zoom, 2))
  }

  @Test("a locked stamp catches the touch and ignores it: neither it nor the viewport moves")
  func lockedStamp() throws {
    let result = try replayed(
      [
        touch(0, 1, .began, 460, 500), touch(0, 2, .began, 560, 500), touch(0.1, 2, .moved, 660, 600),
        touch(0.2, 1, .ended, 460, 500), touch(0.2, 2, .ended, 660, 600),
        touch(1, 3, .began, 500, 500), touch(1.1, 3, .moved, 600, 600), touch(1.2, 3, .ended, 600, 600),
      ], locked: true)
    let stamp = result.stamps[0]
    #expect(stamp.scale == 1 && stamp.rotation == 0 && stamp.center == StampPoint(500, 500))
    #expect(result.viewport.zoom == 1)
    #expect(result.gestures.map(\.kind) == [.pinch, .drag])
    #expect(result.gestures.allSatisfy { $0.target == "s" })
  }

  @Test("an id that ends and begins again in one frame is two touches: here, a double tap")
  func idReusedInOneFrame() throws {
    let result = try replayed([
      touch(0, 1, .began, 100, 100), touch(0.1, 1, .ended, 100, 100), touch(0.1, 1, .began, 104, 100),
      touch(0.2, 1, .ended, 104, 100),
    ])
    #expect(result.gestures.map(\.kind) == [.doubleTap])
    #expect(close(result.gestures[0].t, 0.2))
  }

  @Test("a finger that lands and moves in one frame: both applied in order, the stamp follows")
  func landAndMoveInOneFrame() throws {
    // A stamp 100 wide centred on (100, 100): the finger lands on it at (100, 100) and is at (140, 100) in the same
    // frame, so the landing picks the stamp and the 40-point motion drags it: centre (140, 100), and no tap.
    let stamps = [square("s", at: StampPoint(100, 100))]
    let result = try replay(
      plainScene(
        stamps: stamps,
        [.touches([touch(0, 1, .began, 100, 100), touch(0, 1, .moved, 140, 100), touch(0.1, 1, .ended, 140, 100)])]))
    #expect(close(result.stamps[0].center, StampPoint(140, 100)))
    #expect(result.gestures.map(\.kind) == [.drag])
    #expect(result.gestures.first?.target == "s")
  }

  @Test("two fingers of which one slid past the slop: no two-finger tap")
  func twoFingersOneSlid() throws {
    let result = try replayed([
      touch(0, 1, .began, 100, 100), touch(0, 2, .began, 200, 100), touch(0.1, 2, .moved, 212, 100),
      touch(0.2, 1, .ended, 100, 100), touch(0.2, 2, .ended, 212, 100),
    ])
    #expect(!result.gestures.contains { $0.kind == .twoFingerTap })
  }

  @Test("fingers still down at the end of an item are cancelled; the next item starts clean")
  func leftoverFingersCancelled() throws {
    let spec = plainScene([.touches([touch(0, 1, .began, 100, 100)]), .tap(StampPoint(100, 100))])
    let result = try replay(spec)
    #expect(result.gestures.map(\.kind) == [.tap])
  }
}
