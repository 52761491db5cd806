import Testing

@testable import StampCore

/// A 100 x 100 stamp "s" centred on (500, 500) of a 1000 x 1000 photo with no view: it spans 450...550.
private let stampS = square("s", at: StampPoint(500, 500))

private func replayed(_ events: [TouchEvent], stamps: [StampSpec] = [stampS]) throws -> SceneResult {
  try replay(plainScene(stamps: stamps, [.touches(events)]))
}

@Suite("Manipulation: pinch/rotate and drag")
struct ManipulationTests {
  @Test("pinch and rotation at once: scale 1.5 and 30 degrees, centre fixed")
  func pinchAndRotate() throws {
    // Finger A rests on the stamp at (460, 500); B goes from 100 to the right to 150 away at 30 degrees clockwise:
    // (460 + 150 cos 30, 500 + 150 sin 30) = (589.9038105676658, 575).
    let result = try replayed([
      touch(0, 1, .began, 460, 500), touch(0, 2, .began, 560, 500),
      touch(0.1, 2, .moved, 589.9038105676658, 575),
      touch(0.2, 1, .ended, 460, 500), touch(0.2, 2, .ended, 589.9038105676658, 575),
    ])
    let stamp = try #require(result.stamps.first)
    #expect(close(stamp.scale, 1.5))
    #expect(close(stamp.rotation, 30))
    #expect(stamp.center == StampPoint(500, 500))
    let pinch = try #require(result.gestures.first)
    #expect(result.gestures.count == 1)
    #expect(pinch.kind == .pinch && pinch.target == "s" && close(pinch.t, 0.1))
    #expect(close(pinch.at, StampPoint(524.9519052838329, 537.5)))
  }

  @Test("the scale is clamped at every step: out to 3x then in by half gives 1.0, not 1.5")
  func pathDependentClamp() throws {
    let result = try replayed([
      touch(0, 1, .began, 460, 500), touch(0, 2, .began, 560, 500),
      touch(0.1, 2, .moved, 760, 500), touch(0.2, 2, .moved, 610, 500),
      touch(0.3, 1, .ended, 460, 500), touch(0.3, 2, .ended, 610, 500),
    ])
    #expect(close(try #require(result.stamps.first).scale, 1.0))
  }

  @Test("turning the fingers clockwise on screen turns the stamp by positive degrees")
  func clockwiseIsPositive() throws {
    // B swings from the right of A to below it: a quarter turn clockwise with y down.
    let result = try replayed([
      touch(0, 1, .began, 460, 500), touch(0, 2, .began, 560, 500), touch(0.1, 2, .moved, 460, 600),
      touch(0.2, 1, .ended, 460, 500), touch(0.2, 2, .ended, 460, 600),
    ])
    let stamp = try #require(result.stamps.first)
    #expect(close(stamp.rotation, 90))
    #expect(close(stamp.scale, 1))
  }

  @Test("resting fingers change nothing and report no pinch")
  func restingFingers() throws {
    let result = try replayed([
      touch(0, 1, .began, 460, 500), touch(0, 2, .began, 560, 500),
      touch(0.1, 1, .stationary, 460, 500), touch(0.1, 2, .stationary, 560, 500),
      touch(0.7, 1, .ended, 460, 500), touch(0.7, 2, .ended, 560, 500),
    ])
    #expect(result.stamps[0].scale == 1 && result.stamps[0].rotation == 0)
    #expect(result.gestures.isEmpty)
  }

  @Test("a pinch on the background zooms about the fingers' midpoint")
  func pinchBackground() throws {
    // Span 100 -> 200 about (150, 100): zoom 2, and image (150, 100) stays under view (150, 100):
    // offset (150, 100), visible from (75, 50), 500 wide.
    let result = try replayed(
      [
        touch(0, 1, .began, 100, 100), touch(0, 2, .began, 200, 100),
        touch(0.1, 1, .moved, 50, 100), touch(0.1, 2, .moved, 250, 100),
        touch(0.2, 1, .ended, 50, 100), touch(0.2, 2, .ended, 250, 100),
      ], stamps: [])
    #expect(close(result.viewport.zoom, 2))
    #expect(close(result.viewport.visible, StampRect(x: 75, y: 50, width: 500, height: 500)))
    #expect(result.gestures.map(\.kind) == [.pinch] && result.gestures[0].target == nil)
  }

  @Test("a pinch on the background is clamped to the zoom range")
  func pinchBackgroundClamped() throws {
    // Span 200 -> 1000 asks for zoom 5; the range stops it at 4, still about (500, 500).
    let result = try replayed(
      [
        touch(0, 1, .began, 400, 500), touch(0, 2, .began, 600, 500),
        touch(0.1, 1, .moved, 0, 500), touch(0.1, 2, .moved, 1000, 500),
        touch(0.2, 1, .ended, 0, 500), touch(0.2, 2, .ended, 1000, 500),
      ], stamps: [])
    #expect(result.viewport.zoom == 4)
    #expect(close(result.viewport.visible, StampRect(x: 375, y: 375, width: 250, height: 250)))
  }

  @Test("a drag on a stamp keeps the slop: the centre moves by the whole motion since touch-down")
  func dragKeepsSlop() throws {
    let result = try replayed([
      touch(0, 1, .began, 500, 500), touch(0.1, 1, .moved, 505, 500), touch(0.2, 1, .moved, 512, 500),
      touch(0.3, 1, .moved, 530, 500), touch(0.4, 1, .ended, 530, 500),
    ])
    #expect(result.stamps[0].center == StampPoint(530, 500))
    let drag = try #require(result.gestures.first)
    #expect(drag.kind == .drag && drag.target == "s" && close(drag.t, 0.2) && drag.at == StampPoint(512, 500))
  }

  @Test("a drag on a stamp is converted to image pixels by fit x zoom")
  func dragConverted() throws {
    // 4000x3000 in 400x300 at zoom 2: f * z = 0.2. The stamp is at view (200, 150) = image (1000, 750).
    var settings = GestureSettings()
    settings.zoomRange = 2...4
    let stamp = StampSpec(id: "s", center: StampPoint(200, 150), width: 50, pixelSize: StampSize(100, 100))
    let spec = SceneSpec(
      imageSize: StampSize(4000, 3000), view: StampSize(400, 300), stamps: [stamp],
      gestures: [
        .touches([
          touch(0, 1, .began, 200, 150), touch(0.1, 1, .moved, 220, 140), touch(0.2, 1, .ended, 240, 130),
        ])
      ], settings: settings)
    let result = try replay(spec)
    // (40, -20) points / 0.2 = (200, -100) pixels.
    #expect(close(result.stamps[0].center, StampPoint(1200, 650)))
  }

  @Test("a drag on the background scrolls, clamped")
  func dragScrolls() throws {
    var settings = GestureSettings()
    settings.zoomRange = 2...4
    let drag = [touch(0, 1, .began, 300, 200), touch(0.1, 1, .moved, 250, 175), touch(0.2, 1, .ended, 200, 150)]
    let spec = SceneSpec(
      imageSize: StampSize(4000, 3000), view: StampSize(400, 300), gestures: [.touches(drag)], settings: settings)
    let result = try replay(spec)
    // The content follows the finger by (-100, -50): offset (100, 50), i.e. image (500, 250) at the top-left.
    #expect(close(result.viewport.visible, StampRect(x: 500, y: 250, width: 2000, height: 1500)))
    // The other way the offset would go negative: it stays at 0.
    var back = spec
    back.gestures = [
      .touches([touch(0, 1, .began, 300, 200), touch(0.1, 1, .moved, 350, 225), touch(0.2, 1, .ended, 400, 250)])
    ]
    #expect(close(try replay(back).viewport.visible, StampRect(x: 0, y: 0, width: 2000, height: 1500)))
  }
}

extension ManipulationTests {
  /// A 1000 x 800 photo on a 500 x 400 screen (fit 0.5), a 100-point stamp at view (250, 200), image (500, 400).
  /// Fingers 60 points apart about the stamp's centre, (220, 200) and (280, 200), end at (235, 188) and (325, 188):
  /// 90 apart (x1.5), their midpoint moved from (250, 200) to (280, 188), by (30, -12) points, which at fit 0.5 is
  /// (60, -24) image pixels. The first case moves in one frame; the second first by (2, 0) together (inside the
  /// pinch slop: the pinch has not started) and then the rest, which the pinch catches up on when it starts.
  static let midpointMoves: [[[TouchEvent]]] = [
    [
      [touch(0, 1, .began, 220, 200), touch(0, 2, .began, 280, 200)],
      [touch(0.1, 1, .moved, 235, 188), touch(0.1, 2, .moved, 325, 188)],
      [touch(0.2, 1, .ended, 235, 188), touch(0.2, 2, .ended, 325, 188)],
    ],
    [
      [touch(0, 1, .began, 220, 200), touch(0, 2, .began, 280, 200)],
      [touch(0.05, 1, .moved, 222, 200), touch(0.05, 2, .moved, 282, 200)],
      [touch(0.1, 1, .moved, 235, 188), touch(0.1, 2, .moved, 325, 188)],
      [touch(0.2, 1, .ended, 235, 188), touch(0.2, 2, .ended, 325, 188)],
    ],
  ]

  @Test("pinchMoves: a pinch whose midpoint moves by (30, -12) points at fit 0.5 moves the stamp by (60, -24) px")
  func pinchMovesFollowsTheMidpoint() throws {
    for frames in Self.midpointMoves {
      for moves in [false, true] {
        var settings = GestureSettings()
        settings.pinchMoves = moves
        let star = StampSpec(id: "star", center: StampPoint(250, 200), width: 100, pixelSize: StampSize(64, 64))
        var session = try StampSession(
          imageSize: StampSize(1000, 800), view: StampSize(500, 400), stamps: [star], settings: settings)
        for frame in frames { try session.feed(frame) }
        let stamp = try #require(session.stamps.first)
        let expected = moves ? StampPoint(560, 376) : StampPoint(500, 400)
        #expect(close(stamp.center, expected), "pinchMoves \(moves), \(frames.count) frames: \(stamp.center)")
        #expect(close(stamp.scale, 1.5) && close(stamp.rotation, 0))
      }
    }
  }

  /// With pinchMoves, two fingers sliding together on a stamp (no scale, no turn) move it as a pinch; without it
  /// they change nothing. Fingers (460, 500) and (560, 500) on the 1000 x 1000 photo with no view slide by (0, 40).
  @Test("pinchMoves: two fingers sliding together move the stamp by their motion, and only with the setting")
  func twoFingersSlidingTogether() throws {
    let events = [
      touch(0, 1, .began, 460, 500), touch(0, 2, .began, 560, 500),
      touch(0.1, 1, .moved, 460, 540), touch(0.1, 2, .moved, 560, 540),
      touch(0.2, 1, .ended, 460, 540), touch(0.2, 2, .ended, 560, 540),
    ]
    var settings = GestureSettings()
    settings.pinchMoves = true
    let moved = try replay(plainScene(stamps: [stampS], [.touches(events)], settings: settings))
    #expect(moved.stamps[0].center == StampPoint(500, 540))
    #expect(moved.gestures.map(\.kind) == [.pinch])
    let still = try replayed(events)
    #expect(still.stamps[0].center == StampPoint(500, 500) && still.gestures.isEmpty)
  }
}
