import Testing

@testable import StampCore

/// A 4000 x 3000 photo on a 400 x 300 view: f = 0.1, no insets at zoom 1.
private func phoneScene(_ gestures: [GestureItem], mode: DoubleTapMode = .toggle, stamps: [StampSpec] = [])
  -> SceneSpec
{
  var settings = GestureSettings()
  settings.doubleTap = mode
  return SceneSpec(
    imageSize: StampSize(4000, 3000), view: StampSize(400, 300), stamps: stamps, gestures: gestures, settings: settings)
}

@Suite("Canvas: what taps do to the viewport, and which stamp a finger lands on")
struct CanvasTests {
  @Test("double tap `toggle`: at the minimum, to the maximum centred on the tap")
  func toggleIn() throws {
    // View (100, 75) is image (1000, 750); at zoom 4 (f * z = 0.4) it goes to the centre: offset (200, 150).
    let result = try replay(phoneScene([.doubleTap(StampPoint(100, 75))]))
    #expect(result.viewport.zoom == 4)
    #expect(close(result.viewport.visible, StampRect(x: 500, y: 375, width: 1000, height: 750)))
    #expect(result.gestures.map(\.kind) == [.doubleTap])
    #expect(close(result.gestures[0].at, StampPoint(1000, 750)))
  }

  @Test("double tap `toggle`: zoomed in, back to the minimum")
  func toggleOut() throws {
    let result = try replay(phoneScene([.doubleTap(StampPoint(100, 75)), .doubleTap(StampPoint(300, 200))]))
    #expect(result.viewport.zoom == 1)
    #expect(close(result.viewport.visible, StampRect(x: 0, y: 0, width: 4000, height: 3000)))
  }

  @Test(
    "double tap `step`: zoom x 1.5 centred on the tap, each step multiplying the zoom")
  func stepMultiplies() throws {
    // Image (2000, 1500) at f * z = 0.15 goes to the centre (200, 150): the view spans 2666.67 x 2000 around it.
    let result = try replay(phoneScene([.doubleTap(StampPoint(200, 150))], mode: .step))
    #expect(close(result.viewport.zoom, 1.5))
    let visible = StampRect(x: 2000 - 200 / 0.15, y: 500, width: 400 / 0.15, height: 2000)
    #expect(close(result.viewport.visible, visible, 1e-9))
  }

  @Test("two-finger tap zooms out by 1.5 about the midpoint")
  func twoFingerTapZoomsOut() throws {
    // After the toggle the view shows image (500...1500, 375...1125); its centre (1000, 750) stays the centre
    // at zoom 8/3, where the view spans 1500 x 1125.
    let result = try replay(phoneScene([.doubleTap(StampPoint(100, 75)), .twoFingerTap(StampPoint(200, 150))]))
    #expect(close(result.viewport.zoom, 8.0 / 3.0))
    #expect(close(result.viewport.visible, StampRect(x: 250, y: 187.5, width: 1500, height: 1125)))
    #expect(result.gestures.map(\.kind) == [.doubleTap, .twoFingerTap])
  }

  @Test("two-finger tap at the minimum zoom stays there")
  func twoFingerTapAtMinimum() throws {
    let result = try replay(phoneScene([.twoFingerTap(StampPoint(200, 150))]))
    #expect(result.viewport.zoom == 1)
    #expect(close(result.viewport.visible, StampRect(x: 0, y: 0, width: 4000, height: 3000)))
  }

  @Test("taps act on the viewport even when they land on a stamp")
  func tapOnStampZooms() throws {
    let stamp = StampSpec(id: "s", center: StampPoint(100, 75), width: 80, pixelSize: StampSize(10, 10))
    let result = try replay(phoneScene([.doubleTap(StampPoint(100, 75))], stamps: [stamp]))
    #expect(result.viewport.zoom == 4)
    #expect(result.stamps[0].scale == 1 && close(result.stamps[0].center, StampPoint(1000, 750)))
    #expect(result.gestures[0].target == nil)
  }

  @Test("hit testing picks the topmost stamp: the last in drawing order")
  func topmost() {
    let viewport = Viewport(imageSize: StampSize(1000, 1000), viewSize: StampSize(1000, 1000), zoomRange: 1...4)
    let specs = [square("under", at: StampPoint(500, 500)), square("over", at: StampPoint(540, 500))]
    let canvas = Canvas(viewport: viewport, stamps: specs.map { Stamp($0, in: viewport) }, settings: GestureSettings())
    #expect(canvas.hitTest(StampPoint(460, 500)) == 0)
    #expect(canvas.hitTest(StampPoint(520, 500)) == 1)
    #expect(canvas.hitTest(StampPoint(700, 500)) == nil)
  }

  @Test("hit testing maps the view point through the zoomed viewport")
  func hitThroughViewport() {
    var viewport = Viewport(imageSize: StampSize(1000, 1000), viewSize: StampSize(500, 500), zoomRange: 1...4)
    // f = 0.5; at zoom 2 (f * z = 1) centred on image (100, 100), the offset clamps to (0, 0).
    viewport.zoom(to: 2, centeredOn: StampPoint(100, 100))
    let stamp = Stamp(square("s", at: StampPoint(100, 100), side: 10), in: viewport)
    let canvas = Canvas(viewport: viewport, stamps: [stamp], settings: GestureSettings())
    #expect(canvas.hitTest(StampPoint(100, 100)) == 0)
    #expect(canvas.hitTest(StampPoint(200, 200)) == nil)
  }
}
