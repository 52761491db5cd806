import Testing

@testable import StampCore

@Suite struct SceneCheckTests {
  /// No view: image pixels. A stamp image of 100 x 50 pixels given a width of 2,000,000 is 2,000,000 x 1,000,000
  /// pixels: over the million the renderer can place, so the replay refuses it before any plan is built (it was
  /// found only by the renderer, after validate had passed).
  @Test func aStampDrawnOverAMillionPixelsAcrossIsRefusedByTheReplay() {
    let stamp = StampSpec(id: "s", center: StampPoint(10, 10), width: 2_000_000, pixelSize: StampSize(100, 50))
    let spec = SceneSpec(imageSize: StampSize(400, 300), stamps: [stamp])
    #expect(
      throws: ReplayError.invalidScene(
        path: "stamps[0]",
        message: "it would be 2000000 pixels across, over the limit of 1000000 (check its width and scale)")
    ) {
      try replay(spec)
    }
  }

  /// A 1e-300 zoom (the numbers, given to the engine directly) leaves finite numbers: the centre of a stamp
  /// at view (100, 80) on a 1000 x 750 photo is (100 - 500) / 1e-300 = -4e302; the renderer clips such a stamp.
  @Test func aTinyZoomGivesFiniteNumbersOrAnError() throws {
    var settings = GestureSettings()
    settings.zoomRange = 1e-300...1e-300
    let stamp = StampSpec(id: "s", center: StampPoint(100, 80), width: 1e-300, pixelSize: StampSize(10, 10))
    let scene = try replay(SceneSpec(imageSize: StampSize(1000, 750), stamps: [stamp], settings: settings))
    let placed = try #require(scene.stamps.first)
    #expect(placed.center.x == (100 - 500) / 1e-300)
    #expect(placed.center.isFinite && placed.size.width.isFinite)
  }
}
