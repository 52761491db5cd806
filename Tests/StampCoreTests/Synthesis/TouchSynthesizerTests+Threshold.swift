import Testing

@testable import StampCore

/// The farthest any finger of a synthesized item gets from where it landed, in view points.
private func farthestFinger(_ events: [TouchEvent]) -> Double {
  var landed: [Int: StampPoint] = [:]
  var farthest = 0.0
  for event in events {
    if event.phase == .began { landed[event.id] = event.location }
    if let start = landed[event.id] { farthest = max(farthest, (event.location - start).length) }
  }
  return farthest
}

extension TouchSynthesizerTests {
  struct Exact: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var stamp: StampSpec?
    var item: PinchItem
    /// The stamp's scale and rotation at the end, or the viewport's zoom when there is no stamp.
    var scale: Double
    var rotation: Double
  }

  /// Pinches whose fingers alone would never leave the 10-point pinch slop. The fingers start
  /// 100 apart on the background and on the 5000-wide stamp (capped at 100), 50 apart on the 50-wide stamps at
  /// scale 2 (each halfway from the centre to the edge, 100 / 2 / 2 = 25 out) and 2 apart on the 4-wide one: x1.001
  /// moves each finger 0.05, 0.025 or 0.001 points, and 2 degrees on the 4-wide stamp moves each 1 x 2 sin 1 =
  /// 0.035 points. A stamp at the top of the scale range [0.5, 2] pinched by x1.001 stays at 2; one at 2 pinched by
  /// x0.999 goes to 1.998, which fingers that spread by k first would spoil: 2k is clamped to 2, and the way back
  /// leaves 2 / k.
  static let exact = [
    Exact(
      testDescription: "x1.001 at 0 degrees on a 4-point stamp", stamp: square("s", at: StampPoint(500, 500), side: 4),
      item: PinchItem(target: .stamp("s"), scale: 1.001), scale: 1.001, rotation: 0),
    Exact(
      testDescription: "x1 at 2 degrees on a 4-point stamp", stamp: square("s", at: StampPoint(500, 500), side: 4),
      item: PinchItem(target: .stamp("s"), rotation: 2), scale: 1, rotation: 2),
    Exact(
      testDescription: "x1.001 on a 5000-point stamp", stamp: square("s", at: StampPoint(500, 500), side: 5000),
      item: PinchItem(target: .stamp("s"), scale: 1.001), scale: 1.001, rotation: 0),
    Exact(
      testDescription: "x0.999 on a stamp at scale 2",
      stamp: StampSpec(id: "s", center: StampPoint(500, 500), pixelSize: StampSize(50, 50), scale: 2),
      item: PinchItem(target: .stamp("s"), scale: 0.999), scale: 1.998, rotation: 0),
    Exact(
      testDescription: "x1.001 on a stamp at scale 2",
      stamp: StampSpec(id: "s", center: StampPoint(500, 500), pixelSize: StampSize(50, 50), scale: 2),
      item: PinchItem(target: .stamp("s"), scale: 1.001), scale: 2, rotation: 0),
    Exact(
      testDescription: "x1.001 on the background", stamp: nil,
      item: PinchItem(target: .point(StampPoint(500, 500)), scale: 1.001), scale: 1.001, rotation: 0),
    Exact(
      testDescription: "x1 at 0 degrees on the background", stamp: nil,
      item: PinchItem(target: .point(StampPoint(500, 500))), scale: 1, rotation: 0),
  ]

  @Test(
    "a pinch item of any scale and rotation passes the threshold and reaches exactly what it asks", arguments: exact)
  func pinchItemsPassTheThreshold(_ c: Exact) throws {
    let spec = plainScene(stamps: c.stamp.map { [$0] } ?? [], [.pinch(c.item)])
    let events = try TouchSynthesizer.events(
      for: .pinch(c.item), index: 0, canvas: try StampSession(spec).engine.canvas)
    #expect(farthestFinger(events) > GestureSettings().pinchSlop)
    let result = try replay(spec)
    if c.stamp != nil {
      #expect(close(result.stamps[0].scale, c.scale, 1e-12) && close(result.stamps[0].rotation, c.rotation, 1e-12))
      #expect(result.stamps[0].center == StampPoint(500, 500))
      #expect(result.viewport.zoom == 1)
    } else {
      // Zoom 1.001 about (500, 500): the visible square is 1000 / 1.001 wide, centred on (500, 500).
      let side = 1000 / c.scale
      #expect(close(result.viewport.zoom, c.scale, 1e-12))
      #expect(
        close(result.viewport.visible, StampRect(x: 500 - side / 2, y: 500 - side / 2, width: side, height: side)))
    }
    // A pinch, reported at the centre it is about, and never a two-finger tap.
    #expect(result.gestures.map(\.kind) == [.pinch])
    #expect(result.gestures.first.map { close($0.at, StampPoint(500, 500)) } == true)
  }
}
