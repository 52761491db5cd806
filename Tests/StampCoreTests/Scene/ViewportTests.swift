import Testing

@testable import StampCore

@Suite("Viewport: fit, insets, offsets and zoom to a point")
struct ViewportTests {
  struct FitCase: CustomTestStringConvertible, Sendable {
    let name: String
    let image: StampSize
    let view: StampSize
    let fit: Double
    let inset: StampPoint
    let visible: StampRect
    var testDescription: String { name }
  }

  static let fitCases: [FitCase] = [
    // 200x100 in 400x400: the rates are 2 and 4, but fit never enlarges: f = 1, insets (100, 150).
    FitCase(
      name: "a small photo is never enlarged", image: StampSize(200, 100),
      view: StampSize(400, 400), fit: 1, inset: StampPoint(100, 150),
      visible: StampRect(x: -100, y: -150, width: 400, height: 400)),
    // 4000x3000 in 400x400: f = 0.1, content 400x300, letterbox bars of 50 above and below.
    FitCase(
      name: "a wide photo is letterboxed top and bottom", image: StampSize(4000, 3000), view: StampSize(400, 400),
      fit: 0.1,
      inset: StampPoint(0, 50), visible: StampRect(x: 0, y: -500, width: 4000, height: 4000)),
    // 1000x2000 in 400x400: f = 0.2, content 200x400, bars of 100 left and right.
    FitCase(
      name: "a tall photo is pillarboxed left and right", image: StampSize(1000, 2000), view: StampSize(400, 400),
      fit: 0.2,
      inset: StampPoint(100, 0), visible: StampRect(x: -500, y: 0, width: 2000, height: 2000)),
  ]

  @Test("fit, insets and the visible rectangle at the start", arguments: fitCases)
  func fitting(_ c: FitCase) {
    let viewport = Viewport(imageSize: c.image, viewSize: c.view, zoomRange: 1...4)
    #expect(viewport.fit == c.fit)
    #expect(close(viewport.inset, c.inset))
    #expect(close(viewport.visible, c.visible))
  }

  @Test("a view point maps to (p + o - inset) / (f * z) and back")
  func mapping() {
    let viewport = Viewport(imageSize: StampSize(4000, 3000), viewSize: StampSize(400, 400), zoomRange: 1...4)
    // f = 0.1, inset (0, 50): view (200, 250) is image ((200 - 0) / 0.1, (250 - 50) / 0.1) = (2000, 2000).
    #expect(close(viewport.toImage(StampPoint(200, 250)), StampPoint(2000, 2000)))
    #expect(close(viewport.toView(StampPoint(2000, 2000)), StampPoint(200, 250)))
  }

  @Test("zooming to a point puts it at the view's centre")
  func zoomToPoint() {
    var viewport = Viewport(imageSize: StampSize(4000, 3000), viewSize: StampSize(400, 400), zoomRange: 1...4)
    // Zoom 4: f * z = 0.4, content 1600x1200, no inset; offset = (2000, 1500) * 0.4 - (200, 200) = (600, 400).
    viewport.zoom(to: 4, centeredOn: StampPoint(2000, 1500))
    #expect(close(viewport.offset, StampPoint(600, 400)))
    #expect(close(viewport.visible, StampRect(x: 1500, y: 1000, width: 1000, height: 1000)))
    #expect(close(viewport.toView(StampPoint(2000, 1500)), StampPoint(200, 200)))
  }

  @Test("zooming to a point near a corner clamps the offset")
  func zoomToCornerClamps() {
    var viewport = Viewport(imageSize: StampSize(4000, 3000), viewSize: StampSize(400, 400), zoomRange: 1...4)
    viewport.zoom(to: 4, centeredOn: StampPoint(100, 2900))
    // Wanted offset (40 - 200, 1160 - 200) = (-160, 960); the limits are [0, 1200] x [0, 800].
    #expect(close(viewport.offset, StampPoint(0, 800)))
  }

  @Test("zoom is clamped to the zoom range")
  func zoomClamped() {
    var viewport = Viewport(imageSize: StampSize(1000, 1000), viewSize: StampSize(1000, 1000), zoomRange: 1...4)
    viewport.zoom(to: 9, centeredOn: StampPoint(500, 500))
    #expect(viewport.zoom == 4)
    viewport.zoom(to: 0.2, centeredOn: StampPoint(500, 500))
    #expect(viewport.zoom == 1)
    #expect(viewport.isAtMinimumZoom)
  }

  @Test("scrolling follows the finger and is clamped")
  func scrolling() {
    // zoomRange 2...4: starts at zoom 2, f = 0.1, content 800x600 in 400x300: offsets within [0, 400] x [0, 300].
    var viewport = Viewport(imageSize: StampSize(4000, 3000), viewSize: StampSize(400, 300), zoomRange: 2...4)
    viewport.scroll(by: StampPoint(-100, -50))
    #expect(close(viewport.offset, StampPoint(100, 50)))
    viewport.scroll(by: StampPoint(-1000, 20))
    #expect(close(viewport.offset, StampPoint(400, 30)))
  }

  @Test("keeping an image point under a moved view point: zoom and pan together")
  func setZoomKeeping() {
    var viewport = Viewport(imageSize: StampSize(1000, 1000), viewSize: StampSize(1000, 1000), zoomRange: 1...4)
    viewport.setZoom(2, keeping: StampPoint(150, 100), at: StampPoint(150, 100))
    // Offset = (150, 100) * 2 - (150, 100) = (150, 100); the visible rect starts at (75, 50), 500 wide.
    #expect(close(viewport.visible, StampRect(x: 75, y: 50, width: 500, height: 500)))
  }

  /// Replays two-finger touches on a 1000 x 1000 photo with no stamps and no view (view points are image pixels).
  private func pinched(_ events: [TouchEvent]) throws -> ViewportState {
    try replay(plainScene([.touches(events)])).viewport
  }

  @Test("a background pinch in and back out ends where it began, as a scroll view")
  func pinchInAndOut() throws {
    // 100 points apart, in to 50, out to 100: zoom = 1 x 100 / 100 = 1 (clamped at each step it would end at 2).
    let state = try pinched([
      touch(0, 1, .began, 450, 500), touch(0, 2, .began, 550, 500),
      touch(0.1, 1, .moved, 475, 500), touch(0.1, 2, .moved, 525, 500),
      touch(0.2, 1, .moved, 450, 500), touch(0.2, 2, .moved, 550, 500),
      touch(0.3, 1, .ended, 450, 500), touch(0.3, 2, .ended, 550, 500),
    ])
    #expect(close(state.zoom, 1))
    #expect(close(state.visible, StampRect(x: 0, y: 0, width: 1000, height: 1000)))
  }

  @Test("a background pinch past the zoom limit and back follows the fingers from the start")
  func pinchPastLimitAndBack() throws {
    // 200 apart about (500, 500): out to 1000 asks 5 (clamped to 4), back to 400 gives 1 x 400 / 200 = 2; image
    // (500, 500) stays under the midpoint (500, 500): offset 500 x 2 - 500 = 500, visible from (250, 250).
    let state = try pinched([
      touch(0, 1, .began, 400, 500), touch(0, 2, .began, 600, 500),
      touch(0.1, 1, .moved, 0, 500), touch(0.1, 2, .moved, 1000, 500),
      touch(0.2, 1, .moved, 300, 500), touch(0.2, 2, .moved, 700, 500),
      touch(0.3, 1, .ended, 300, 500), touch(0.3, 2, .ended, 700, 500),
    ])
    #expect(close(state.zoom, 2))
    #expect(close(state.visible, StampRect(x: 250, y: 250, width: 500, height: 500)))
  }

  @Test("a background pinch re-anchors when the first finger lifts: the new pair goes on from there")
  func pinchReanchors() throws {
    // A-B 200 -> 400 about (600, 500): zoom 2, image (500, 500) under (600, 500): offset (400, 500). C lands at
    // (200, 500); A lifts: B-C is 600 apart about (500, 500), image ((500 + 400) / 2, (500 + 500) / 2) = (450, 500).
    // C moves to (0, 500): 800 apart, zoom 2 x 800 / 600 = 8/3 about (400, 500); offset (450 x 8/3 - 400,
    // 500 x 8/3 - 500) = (800, 833.33), visible from (300, 312.5), 375 wide.
    let state = try pinched([
      touch(0, 1, .began, 400, 500), touch(0, 2, .began, 600, 500), touch(0.1, 2, .moved, 800, 500),
      touch(0.2, 3, .began, 200, 500), touch(0.3, 1, .ended, 400, 500), touch(0.4, 3, .moved, 0, 500),
    ])
    #expect(close(state.zoom, 8.0 / 3.0))
    #expect(close(state.visible, StampRect(x: 300, y: 312.5, width: 375, height: 375)))
  }
}
