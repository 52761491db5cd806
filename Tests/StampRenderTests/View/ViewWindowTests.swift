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

  /// A view far smaller than its photo: 1008 x 1008 image pixels onto 3 x 3 (a factor of 336, past the 333.2 that
  /// one libvips reduce takes, as a 16-point screen over a 24-megapixel photo, or a screen scale of 0.05, would
  /// need; box-averaged by 42 into 24 x 24, then reduced by 8) and onto 80 x 80 (12.6, where libvips' reduce alone
  /// made a flat grey of 200 198). A solid photo stays its colour in the middle pixel (pixels near the photo's edge
  /// may take a little of the black past it: the resamplers reach past it).
  @Test(arguments: [3, 80])
  func aViewMuchSmallerThanItsPhotoKeepsItsColours(side: Int) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let photo = try fixtures.solid("photo.png", width: 1008, height: 1008, pixel: [200, 100, 50])
    let window = ViewWindow(
      visible: StampRect(x: 0, y: 0, width: 1008, height: 1008), viewSize: StampSize(Double(side), Double(side)),
      screenScale: 1)
    let output = fixtures.path("screen.png")
    try Renderer().renderView(RenderPlan(base: photo, stamps: []), window: window, to: output)
    let screen = try Pixels(output)
    #expect(screen.width == side && screen.height == side)
    let p = screen[side / 2, side / 2]
    #expect(abs(Int(p[0]) - 200) <= 1 && abs(Int(p[1]) - 100) <= 1 && abs(Int(p[2]) - 50) <= 1, "\(p)")
  }

  /// Factors past 8 are box-averaged by the smallest whole factor that leaves at most 8 for the reduce: 12.5 is
  /// 2 x 6.25, 333.3 is 42 x 7.94; 8 and less are the reduce's alone; a box never passes the photo's longer side.
  @Test func largeFactorsAreBoxAveragedFirst() {
    #expect(Renderer.viewShrink(4.1, largest: 1000) == (1, 4.1))
    #expect(Renderer.viewShrink(8, largest: 1000) == (1, 8))
    #expect(Renderer.viewShrink(12.5, largest: 1000) == (2, 6.25))
    let third = Renderer.viewShrink(1000 / 3, largest: 1000)
    #expect(third.box == 42 && abs(third.rest - 1000 / 3 / 42) < 1e-12)
    #expect(Renderer.viewShrink(1e6, largest: 1000) == (1000, 1000))
  }
}
