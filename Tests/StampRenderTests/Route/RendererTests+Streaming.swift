import Foundation
import StampCore
import StampTestSupport
import Testing

@testable import StampRender

@Suite("Renderer: a stamped photo read once, top to bottom")
struct RendererStreamingTests {
  /// A 40 x 30 stamp whose alpha climbs across it (0 at the left, 234 at the right) over a fixed colour.
  static func stampPixel(_ x: Int, _ y: Int) -> [UInt8] { [200, UInt8(y * 8), 40, UInt8(x * 6)] }

  /// The base's pixel at (x, y): smooth enough to survive JPEG, different everywhere.
  static func basePixel(_ x: Int, _ y: Int) -> [UInt8] {
    [UInt8((x / 4 + y / 8) % 256), UInt8((y / 4) % 256), UInt8((x / 2) % 256)]
  }

  /// Stamps far apart down a tall photo (a band at the top, one in the middle of two stamps side by side with base
  /// on both sides, one at the bottom) are drawn on a photo read in order, and every pixel is what a random-access
  /// decode of the photo with each stamp blended "over" by hand gives, within one level. Scale 1, no rotation,
  /// centres half a stamp from a whole pixel: each stamp pixel lands on one photo pixel, so the blend is
  /// out = s * a / 255 + b * (1 - a / 255). Pieces more than 1024 rows apart are what made libvips empty its line
  /// cache under the other crops ("out of order read").
  @Test func farApartStampsOnATallPhotoMatchAHandBlend() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let (width, height) = (480, 2600)
    let base = try fixtures.picture("base.jpg", width: width, height: height, bands: 3) { Self.basePixel($0, $1) }
    let stamp = try fixtures.picture("stamp.png", width: 40, height: 30, bands: 4) { Self.stampPixel($0, $1) }
    let corners = [(20, 40), (60, 1300), (300, 1310), (200, 2540)]
    let plan = RenderPlan(
      base: base,
      stamps: corners.enumerated().map { i, corner in
        .init(
          image: stamp,
          placement: PlacedStamp(
            id: "s\(i)", center: StampPoint(Double(corner.0) + 20, Double(corner.1) + 15), size: StampSize(40, 30),
            scale: 1,
            rotation: 0))
      })
    let renderer = Renderer()
    #expect(try renderer.compose(plan).image.readsInOrder)
    let output = fixtures.path("out.png")
    try renderer.render(plan, to: output)

    // Blended in real numbers; libvips' composite writes 8-bit results truncated, hence the one level.
    let decoded = try Pixels(base)  // DecodedImage: random access
    var blended = decoded.samples.map(Double.init)
    for (left, top) in corners {
      for y in 0..<30 {
        for x in 0..<40 {
          let s = Self.stampPixel(x, y)
          let a = Double(s[3]) / 255
          let at = ((top + y) * width + left + x) * 3
          // Stamps are kept premultiplied in 8 bits (StampCache), rounded to nearest.
          for c in 0..<3 { blended[at + c] = (Double(s[c]) * a).rounded() + blended[at + c] * (1 - a) }
        }
      }
    }
    let got = try Pixels(output)
    try #require(got.width == width && got.height == height && got.bands == 3)
    var worst = (0.0, 0)
    for i in blended.indices where abs(Double(got.samples[i]) - blended[i]) > worst.0 {
      worst = (abs(Double(got.samples[i]) - blended[i]), i)
    }
    #expect(worst.0 <= 1, "sample \(worst.1): \(got.samples[worst.1]) against \(blended[worst.1])")
  }

  /// A photo with an EXIF orientation is turned upright, which reads it out of order: decoded whole first.
  @Test func aTurnedPhotoIsDecodedWhole() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.solid("base.jpg", width: 64, height: 48, pixel: [10, 20, 30], orientation: 6)
    let stamp = try fixtures.solid("stamp.png", width: 8, height: 8, pixel: [255, 0, 0, 255])
    let plan = RenderPlan(
      base: base, stamp: stamp,
      placement: PlacedStamp(id: "s", center: StampPoint(10, 10), size: StampSize(8, 8), scale: 1, rotation: 0))
    #expect(try Renderer().compose(plan).image.readsInOrder == false)
  }
}
