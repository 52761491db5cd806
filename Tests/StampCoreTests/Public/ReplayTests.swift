import Testing

@testable import StampCore

@Suite("replay: the script on one clock, and the scene it leaves")
struct ReplayTests {
  @Test("items play 1 s apart on one clock, so two taps in a row never merge into a double tap")
  func oneClock() throws {
    // Item 0 ends at 0.1 (its tap fires at 0.45); item 1 starts at 1.1, ends at 1.2 and fires at 1.55.
    let result = try replay(plainScene([.tap(StampPoint(100, 100)), .tap(StampPoint(100, 100))]))
    #expect(result.gestures.map(\.kind) == [.tap, .tap])
    #expect(close(result.gestures[0].t, 0.45))
    #expect(close(result.gestures[1].t, 1.55))
  }

  @Test("a recorded trace's t is relative to its item's start")
  func relativeTime() throws {
    let trace: GestureItem = .touches([touch(0.25, 7, .began, 100, 100), touch(0.35, 7, .ended, 100, 100)])
    let result = try replay(plainScene([.tap(StampPoint(100, 100)), trace]))
    // Item 1 starts at 0.1 + 1 = 1.1: the touch ends at 1.45 and fires at 1.8.
    #expect(close(result.gestures[1].t, 1.8))
  }

  @Test("a single tap still pending at the end of the script fires")
  func flushAtEnd() throws {
    let result = try replay(plainScene([.touches([touch(0, 1, .began, 5, 5), touch(0.1, 1, .ended, 5, 5)])]))
    #expect(result.gestures.map(\.kind) == [.tap])
    #expect(close(result.gestures[0].t, 0.45))
  }

  @Test("with no gestures the stamps come back in image space as placed")
  func placementOnly() throws {
    // 2000 x 1000 in 400 x 400: f = 0.2, inset (0, 100); view (200, 200) is image (1000, 500).
    let stamp = StampSpec(
      id: "a", center: StampPoint(200, 200), width: 40, pixelSize: StampSize(80, 20), scale: 1.25, rotation: 45)
    let spec = SceneSpec(imageSize: StampSize(2000, 1000), view: StampSize(400, 400), stamps: [stamp])
    let result = try replay(spec)
    #expect(
      result.stamps == [
        PlacedStamp(id: "a", center: StampPoint(1000, 500), size: StampSize(200, 50), scale: 1.25, rotation: 45)
      ])
    #expect(result.viewport.zoom == 1)
    #expect(result.viewport.viewSize == StampSize(400, 400))
    // The letterbox bars of 100 points above and below reach 500 pixels past the photo.
    #expect(close(result.viewport.visible, StampRect(x: 0, y: -500, width: 2000, height: 2000)))
    #expect(result.gestures.isEmpty)
  }

  @Test("without a view, view points are image pixels")
  func noView() throws {
    let result = try replay(plainScene(stamps: [square("s", at: StampPoint(300, 400), side: 64)], []))
    #expect(result.stamps[0].center == StampPoint(300, 400))
    #expect(result.stamps[0].size == StampSize(64, 64))
    #expect(result.viewport.visible == StampRect(x: 0, y: 0, width: 1000, height: 1000))
  }

  @Test("a pinch, a drag and a double tap together, worked by hand")
  func script() throws {
    // The stamp (100 px at (500, 500)) is pinched x1.5 and turned 30 degrees, dragged by (100, -50), then a
    // double tap at (900, 900) zooms to 4 centred there (the offset clamps to (3000, 3000)).
    let gestures: [GestureItem] = [
      .pinch(PinchItem(target: .stamp("s"), scale: 1.5, rotation: 30)),
      .drag(DragItem(from: .stamp("s"), by: StampPoint(100, -50))), .doubleTap(StampPoint(900, 900)),
    ]
    let result = try replay(plainScene(stamps: [square("s", at: StampPoint(500, 500))], gestures))
    let stamp = result.stamps[0]
    #expect(close(stamp.scale, 1.5) && close(stamp.rotation, 30) && close(stamp.center, StampPoint(600, 450)))
    #expect(close(result.viewport.visible, StampRect(x: 750, y: 750, width: 250, height: 250)))
    #expect(result.gestures.map(\.kind) == [.pinch, .drag, .doubleTap])
    #expect(result.gestures.map(\.target) == ["s", "s", nil])
  }

  @Test("an invalid trace is an error naming the item, the event and the field")
  func invalidTrace() throws {
    let spec = plainScene([.tap(.zero), .touches([touch(0.6, 1, .began, 0, 0), touch(0.52, 1, .ended, 0, 0)])])
    let error = try #require(throws: ReplayError.self) { try replay(spec) }
    #expect(error.description == "gestures[1].touches[1].t: time goes backwards (0.52 after 0.60)")
  }

  struct SceneCase: CustomTestStringConvertible, Sendable {
    let name: String
    let spec: SceneSpec
    let message: String
    var testDescription: String { name }
  }

  static let sceneCases: [SceneCase] = [
    SceneCase(
      name: "empty photo", spec: SceneSpec(imageSize: StampSize(0, 10)),
      message: "imageSize.width: must be a positive number, not 0.00"),
    SceneCase(
      name: "duplicate stamp ids", spec: plainScene(stamps: [square("a", at: .zero), square("a", at: .zero)], []),
      message: "stamps[1].id: duplicate stamp id \"a\""),
    SceneCase(
      name: "not-a-number centre", spec: plainScene(stamps: [square("a", at: StampPoint(.nan, 0))], []),
      message: "stamps[0].center: must be finite numbers"),
  ]

  @Test("an unusable scene is an error with a path", arguments: sceneCases)
  func invalidScene(_ c: SceneCase) throws {
    let error = try #require(throws: ReplayError.self) { try replay(c.spec) }
    #expect(error.description == c.message)
  }
}
