import Foundation
import StampCore
import StampTestSupport
import Testing

@testable import StampRender

@Suite("View output: what the screen showed, placed to a fraction of a pixel")
struct ViewWindowTests {
  /// A 400 x 310 black photo with a white Gaussian blob (sigma 20) centred at (180.5, 140.5), seen through a window
  /// of 410 x 410 image pixels from (-3, -50) onto 100 x 100 pixels: factor 100 / 410, so libvips' reduce rounds
  /// the photo to 98 x 76 (not 97.56 x 75.61). The screen shows p at (p - origin) * factor: the blob's centroid
  /// lands at (183.5 / 4.1, 190.5 / 4.1) = (44.756, 46.463), to 0.05 px.
  @Test func reducedPhotoLandsWhereTheWindowSays() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let photo = try fixtures.picture("photo.png", width: 400, height: 310, bands: 3) { x, y in
      let (dx, dy) = ((Double(x) + 0.5 - 180.5) / 20, (Double(y) + 0.5 - 140.5) / 20)
      let v = UInt8((255 * exp(-(dx * dx + dy * dy) / 2)).rounded())
      return [v, v, v]
    }
    let window = ViewWindow(
      visible: StampRect(x: -3, y: -50, width: 410, height: 410), viewSize: StampSize(100, 100), screenScale: 1)
    let output = fixtures.path("screen.png")
    try Renderer().renderView(RenderPlan(base: photo, stamps: []), window: window, to: output)
    let screen = try Pixels(output)
    #expect(screen.width == 100 && screen.height == 100)
    let found = screen.centroid { Double($0[0]) }
    #expect(abs(found.x - 183.5 / 4.1) < 0.05 && abs(found.y - 190.5 / 4.1) < 0.05, "\(found.x), \(found.y)")
  }
}
