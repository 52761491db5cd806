import Foundation
import StampCore
import StampTestSupport
import Testing

@testable import StampRender

@Suite("Renderer: placement, alpha, orientation, clipping")
struct RendererTests {
  struct PlacementCase: CustomTestStringConvertible, Sendable {
    var rotation: Double
    var scale: Double
    var testDescription: String { "rotation \(rotation), scale \(scale)" }
  }

  static let placements: [PlacementCase] = [0.0, 30, 90, 180, -45].flatMap { r in
    [0.5, 1, 2].map { PlacementCase(rotation: r, scale: $0) }
  }

  /// A 40 x 20 red stamp whose right half is green lands with its centre on the requested point, and its right
  /// half turns the way a clockwise rotation says: the green centroid sits 10 * scale from the centre along
  /// (cos r, sin r) in y-down coordinates.
  @Test(arguments: placements)
  func stampCentreLandsOnItsPoint(_ c: PlacementCase) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.solid("base.png", width: 300, height: 240, pixel: [0, 0, 0])
    let stamp = try fixtures.picture("stamp.png", width: 40, height: 20, bands: 4) { x, _ in
      x < 20 ? [255, 0, 0, 255] : [0, 255, 0, 255]
    }
    let center = StampPoint(150.3, 120.7)
    let plan = RenderPlan(
      base: base,
      stamps: [
        .init(
          image: stamp,
          placement: PlacedStamp(id: "s", center: center, size: StampSize(40, 20), scale: c.scale, rotation: c.rotation)
        )
      ])
    let output = fixtures.path("out.png")
    try Renderer().render(plan, to: output)
    let pixels = try Pixels(output)
    let whole = pixels.centroid { Double($0[0]) + Double($0[1]) }
    #expect(abs(whole.x - center.x) < 0.1)
    #expect(abs(whole.y - center.y) < 0.1)
    // Total coverage is the stamp's area times scale squared.
    #expect(abs(whole.mass / 255 - 800 * c.scale * c.scale) < 800 * c.scale * c.scale * 0.01)
    let green = pixels.centroid { Double($0[1]) }
    let radians = c.rotation * .pi / 180
    #expect(abs(green.x - (center.x + 10 * c.scale * cos(radians))) < 0.15)
    #expect(abs(green.y - (center.y + 10 * c.scale * sin(radians))) < 0.15)
  }

  /// Resampling an unpremultiplied soft edge blends colour with the transparent black around it; premultiplied
  /// resampling keeps a white stamp on a white base white everywhere.
  @Test func softWhiteStampOnWhiteHasNoDarkFringe() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.solid("base.png", width: 120, height: 120, pixel: [255, 255, 255])
    let stamp = try fixtures.picture("soft.png", width: 64, height: 64, bands: 4) { x, y in
      let d = hypot(Double(x) + 0.5 - 32, Double(y) + 0.5 - 32)
      return [255, 255, 255, UInt8(max(0, min(255, (32 - d) * 16)))]
    }
    let plan = RenderPlan(
      base: base,
      stamps: [
        .init(
          image: stamp,
          placement: PlacedStamp(
            id: "s", center: StampPoint(60.25, 59.6), size: StampSize(64, 64), scale: 1.37, rotation: 23))
      ])
    let output = fixtures.path("out.png")
    try Renderer().render(plan, to: output)
    let pixels = try Pixels(output)
    #expect(pixels.samples.allSatisfy { $0 >= 254 }, "darkest sample \(pixels.samples.min() ?? 0)")
  }

  /// A base stored 300 x 200 with EXIF orientation 6 (rotate 90 degrees clockwise to display) is 200 x 300 upright;
  /// the stamp's image-space centre is in that upright frame, and the output is upright pixels.
  @Test func exifOrientation6PlacesStampsInTheUprightFrame() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    // Stored frame: a blue marker in the stored top-left corner; orientation 6 puts it at the upright top-right.
    let base = try fixtures.picture("base.jpg", width: 300, height: 200, bands: 3, orientation: 6) { x, y in
      x < 20 && y < 20 ? [0, 0, 255] : [0, 0, 0]
    }
    #expect(try ImageHeader.read(base).uprightSize == StampSize(200, 300))
    let stamp = try fixtures.solid("stamp.png", width: 20, height: 20, pixel: [255, 0, 0, 255])
    let plan = RenderPlan(
      base: base,
      stamps: [
        .init(
          image: stamp,
          placement: PlacedStamp(id: "s", center: StampPoint(50, 250), size: StampSize(20, 20), scale: 1, rotation: 0)
        )
      ])
    let output = fixtures.path("out.png")
    try Renderer().render(plan, to: output)
    let pixels = try Pixels(output)
    #expect(pixels.width == 200 && pixels.height == 300)
    let red = pixels.centroid { $0[0] > 128 && $0[1] < 100 ? 1 : 0 }
    #expect(abs(red.x - 50) < 0.6 && abs(red.y - 250) < 0.6)
    let blue = pixels.centroid { $0[2] > 128 && $0[0] < 100 ? 1 : 0 }
    #expect(abs(blue.x - 190) < 1 && abs(blue.y - 10) < 1)
  }

  /// Clipping: a stamp whose centre is at (5, 5) shows only its bottom-right quarter-ish [0, 25) x [0, 15); one
  /// wholly off the photo changes nothing.
  @Test func stampsPartlyAndWhollyOffThePhotoAreClipped() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.solid("base.png", width: 100, height: 80, pixel: [0, 0, 0])
    let stamp = try fixtures.solid("stamp.png", width: 40, height: 20, pixel: [255, 0, 0, 255])
    func placed(_ x: Double, _ y: Double) -> RenderPlan.Stamp {
      .init(
        image: stamp,
        placement: PlacedStamp(id: "s", center: StampPoint(x, y), size: StampSize(40, 20), scale: 1, rotation: 0))
    }
    let partly = fixtures.path("partly.png")
    try Renderer().render(RenderPlan(base: base, stamps: [placed(5, 5)]), to: partly)
    let red = try Pixels(partly).centroid { Double($0[0]) / 255 }
    #expect(abs(red.mass - 25 * 15) < 1)
    #expect(abs(red.x - 12.5) < 0.05 && abs(red.y - 7.5) < 0.05)
    let wholly = fixtures.path("wholly.png")
    try Renderer().render(RenderPlan(base: base, stamps: [placed(-100, -100), placed(200, 40)]), to: wholly)
    let pixels = try Pixels(wholly)
    #expect(pixels.width == 100 && pixels.height == 80 && pixels.samples.allSatisfy { $0 == 0 })
  }

  /// Stamps are composited in drawing order: the later one covers the earlier where they overlap.
  @Test func laterStampsLieOnTop() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.solid("base.png", width: 60, height: 60, pixel: [0, 0, 0])
    let red = try fixtures.solid("red.png", width: 20, height: 20, pixel: [255, 0, 0, 255])
    let green = try fixtures.solid("green.png", width: 20, height: 20, pixel: [0, 255, 0, 255])
    let plan = RenderPlan(
      base: base,
      stamps: [
        .init(
          image: red,
          placement: PlacedStamp(id: "r", center: StampPoint(25, 30), size: StampSize(20, 20), scale: 1, rotation: 0)),
        .init(
          image: green,
          placement: PlacedStamp(id: "g", center: StampPoint(35, 30), size: StampSize(20, 20), scale: 1, rotation: 0)),
      ])
    let output = fixtures.path("out.png")
    try Renderer().render(plan, to: output)
    let pixels = try Pixels(output)
    #expect(pixels[20, 30] == [255, 0, 0])
    #expect(pixels[30, 30] == [0, 255, 0])
    #expect(pixels[40, 30] == [0, 255, 0])
  }

  /// Half-transparent stamps follow the "over" operator. Opaque base: alpha 128 of (200, 40, 0) over (100, 100, 100)
  /// gives 100 + 128/255 * (c - 100): (150.2, 69.9, 49.8). A base of alpha 102 (0.4) in (0, 0, 255) under alpha
  /// 153 (0.6) of (255, 0, 0): alpha 0.6 + 0.4 * 0.4 = 0.76; colour (0.6 * 255, 0, 0.16 * 255) / 0.76 =
  /// (201.3, 0, 53.7); alpha 193.8. Allowed error 1.5 levels: the stamp is held premultiplied in 8 bits (half a
  /// level) and libvips' composite truncates its float result to 8 bits (under one level).
  @Test func translucentStampsBlendByTheOverOperator() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    func drawn(base: String, stamp: String) throws -> Pixels {
      let plan = RenderPlan(
        base: base, stamp: stamp,
        placement: PlacedStamp(id: "s", center: StampPoint(20, 20), size: StampSize(20, 20), scale: 1, rotation: 0))
      let output = fixtures.path("out-\((base as NSString).lastPathComponent)")
      try Renderer().render(plan, to: output)
      return try Pixels(output)
    }
    let opaque = try drawn(
      base: try fixtures.solid("grey.png", width: 40, height: 40, pixel: [100, 100, 100]),
      stamp: try fixtures.solid("half.png", width: 20, height: 20, pixel: [200, 40, 0, 128]))
    for (got, want) in zip(opaque[20, 20], [150.2, 69.9, 49.8]) { #expect(abs(Double(got) - want) <= 1.5) }
    #expect(opaque[2, 2] == [100, 100, 100])
    let translucent = try drawn(
      base: try fixtures.solid("glass.png", width: 40, height: 40, pixel: [0, 0, 255, 102]),
      stamp: try fixtures.solid("red60.png", width: 20, height: 20, pixel: [255, 0, 0, 153]))
    for (got, want) in zip(translucent[20, 20], [201.3, 0, 53.7, 193.8]) { #expect(abs(Double(got) - want) <= 1.5) }
    #expect(translucent[2, 2] == [0, 0, 255, 102])
  }
}
