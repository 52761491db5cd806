import Testing

@testable import StampCore

/// A phone-like job: a 3024 x 4032 photo on a 390 x 844 view (f = 390/3024) with one stamp in the middle.
private func phoneJob(_ gestures: [GestureItem], stamps: [StampSpec]? = nil) -> SceneSpec {
  let stamp = StampSpec(id: "star", center: StampPoint(195, 422), width: 120, pixelSize: StampSize(512, 512))
  return SceneSpec(
    imageSize: StampSize(3024, 4032), view: StampSize(390, 844), stamps: stamps ?? [stamp], gestures: gestures)
}

@Suite("TouchSynthesizer: high-level items become touches when they play")
struct TouchSynthesizerTests {
  @Test("a pinch item asking for scale 1.5 and rotation 30 yields exactly that")
  func pinchExact() throws {
    let result = try replay(phoneJob([.pinch(PinchItem(target: .stamp("star"), scale: 1.5, rotation: 30))]))
    let stamp = try #require(result.stamps.first)
    #expect(close(stamp.scale, 1.5, 1e-9))
    #expect(close(stamp.rotation, 30, 1e-9))
    // The centre stays where it was placed. The content is 390 x 520, so the inset is (0, 162):
    // view (195, 422) is image (195, 260) / f with f = 390/3024, i.e. (1512, 2016).
    #expect(close(stamp.center, StampPoint(1512, 2016), 1e-9))
    #expect(result.gestures.map(\.kind) == [.pinch])
    #expect(result.viewport.zoom == 1)
  }

  @Test("a pinch item beyond the scale range is clamped", arguments: [(3.0, 2.0), (0.1, 0.5)])
  func pinchClamped(_ asked: Double, _ expected: Double) throws {
    let result = try replay(phoneJob([.pinch(PinchItem(target: .stamp("star"), scale: asked))]))
    #expect(close(result.stamps[0].scale, expected))
  }

  @Test("a pinch item of several turns in few steps still turns all the way")
  func manyTurns() throws {
    let item = PinchItem(target: .stamp("star"), rotation: -400, steps: 2)
    #expect(close(try replay(phoneJob([.pinch(item)])).stamps[0].rotation, -400, 1e-9))
  }

  @Test("a pinch on a stamp finds it where earlier gestures moved it")
  func pinchFollowsStamp() throws {
    // A small stamp (40 points) dragged 150 points right: a pinch at its old place would miss it.
    let stamp = StampSpec(id: "dot", center: StampPoint(100, 200), width: 40, pixelSize: StampSize(64, 64))
    let gestures: [GestureItem] = [
      .drag(DragItem(from: .stamp("dot"), by: StampPoint(150, 0))),
      .pinch(PinchItem(target: .stamp("dot"), scale: 1.25)),
    ]
    let result = try replay(phoneJob(gestures, stamps: [stamp]))
    #expect(close(result.stamps[0].scale, 1.25))
    #expect(close(result.stamps[0].center, StampPoint(250 * 3024 / 390.0, (200 - 162) * 3024 / 390.0), 1e-9))
    #expect(result.viewport.zoom == 1)
    #expect(result.gestures.map(\.kind) == [.drag, .pinch])
  }

  @Test("a pinch item on a small stamp keeps both fingers on it and pinches at its centre")
  func pinchSmallStamp() throws {
    // A stamp 30 wide centred on (500, 300): its centre is 15 from its edge, so the fingers start 7.5 either side
    // of the centre, at x 492.5 and 507.5, both inside 485...515; the pinch is at the centre.
    let spec = plainScene(
      stamps: [square("s", at: StampPoint(500, 300), side: 30)], [.pinch(PinchItem(target: .stamp("s"), scale: 1.5))])
    let (result, traces) = try replayTracing(spec)
    let starts = traces.compactMap(\.points.first)
    #expect(starts.count == 2)
    #expect(starts.allSatisfy { close($0, StampPoint(492.5, 300)) || close($0, StampPoint(507.5, 300)) })
    #expect(result.gestures.map(\.kind) == [.pinch])
    #expect(result.gestures.first.map { close($0.at, StampPoint(500, 300)) } == true)
    #expect(close(result.stamps[0].scale, 1.5))
  }

  @Test("a pinch item at a point zooms the viewport about it")
  func pinchAtPoint() throws {
    let result = try replay(plainScene([.pinch(PinchItem(target: .point(StampPoint(500, 500)), scale: 2))]))
    #expect(close(result.viewport.zoom, 2))
    #expect(close(result.viewport.visible, StampRect(x: 250, y: 250, width: 500, height: 500)))
  }

  @Test("a drag item exactly as long as the tap slop is a drag, not a tap")
  func slopDrag() throws {
    let result = try replay(
      plainScene(
        stamps: [square("s", at: StampPoint(500, 500))], [.drag(DragItem(from: .stamp("s"), by: StampPoint(6, 8)))]))
    #expect(close(result.stamps[0].center, StampPoint(506, 508)))
    #expect(result.gestures.map(\.kind) == [.drag])
  }

  @Test("a drag item shorter than the tap slop is still a drag")
  func shortDrag() throws {
    let result = try replay(
      plainScene(
        stamps: [square("s", at: StampPoint(500, 500))],
        [
          .drag(DragItem(from: .stamp("s"), by: StampPoint(3, 4)))
        ]))
    #expect(close(result.stamps[0].center, StampPoint(503, 504)))
    #expect(result.gestures.map(\.kind) == [.drag])
  }

  @Test("tap items become the taps they name")
  func taps() throws {
    let result = try replay(
      plainScene([.tap(StampPoint(10, 10)), .doubleTap(StampPoint(10, 10)), .twoFingerTap(StampPoint(10, 10))]))
    #expect(result.gestures.map(\.kind) == [.tap, .doubleTap, .twoFingerTap])
    // The double tap zooms to 4 (the offset clamps to 0), so the two-finger tap's (10, 10) is image (2.5, 2.5).
    #expect(result.gestures.map(\.at) == [StampPoint(10, 10), StampPoint(10, 10), StampPoint(2.5, 2.5)])
  }

  struct BadCase: CustomTestStringConvertible, Sendable {
    let name: String
    let item: GestureItem
    let error: ReplayError
    var testDescription: String { name }
  }

  static let badCases: [BadCase] = [
    BadCase(
      name: "unknown stamp", item: .pinch(PinchItem(target: .stamp("nope"))),
      error: .unknownStamp(item: 0, id: "nope")),
    BadCase(
      name: "covered stamp", item: .drag(DragItem(from: .stamp("under"), by: StampPoint(50, 0))),
      error: .stampCovered(item: 0, id: "under")),
    BadCase(
      name: "no steps", item: .pinch(PinchItem(target: .point(.zero), steps: 0)),
      error: .invalidItem(item: 0, field: "pinch.steps", message: "must be from 1 to 100000")),
    BadCase(
      name: "more steps than the manifest allows",
      item: .drag(DragItem(from: .point(.zero), by: StampPoint(1, 1), steps: 100_001)),
      error: .invalidItem(item: 0, field: "drag.steps", message: "must be from 1 to 100000")),
    BadCase(
      name: "zero duration", item: .drag(DragItem(from: .point(.zero), by: StampPoint(1, 1), duration: 0)),
      error: .invalidItem(item: 0, field: "drag.duration", message: "must be a positive number of seconds")),
    BadCase(
      name: "negative scale", item: .pinch(PinchItem(target: .point(.zero), scale: -1)),
      error: .invalidItem(item: 0, field: "pinch.scale", message: "must be a positive number")),
  ]

  @Test("items that cannot be played are clear errors", arguments: badCases)
  func badItems(_ c: BadCase) {
    let stamps = [square("under", at: StampPoint(500, 500)), square("over", at: StampPoint(500, 500), side: 300)]
    #expect(throws: c.error) { try replay(plainScene(stamps: stamps, [c.item])) }
  }
}
