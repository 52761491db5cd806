import StampCore
import StampTestSupport
import Testing

@testable import StampRender

@Suite("Region-only compositing: bands")
struct BandPlanTests {
  @Test func overlappingRowsMergeAndDrawingOrderIsKept() {
    // Boxes as (left, top, right, bottom). Box 2 starts above box 0 and overlaps its rows; box 1 is alone lower.
    let plan = BandPlan(boxes: [(10, 20, 30, 40), (0, 100, 50, 120), (40, 5, 60, 25)])
    #expect(
      plan.bands == [
        .init(top: 5, bottom: 40, left: 10, right: 60, layers: [0, 2]),
        .init(top: 100, bottom: 120, left: 0, right: 50, layers: [1]),
      ])
  }

  @Test func touchingRowsStaySeparateBands() {
    let plan = BandPlan(boxes: [(0, 0, 10, 10), (0, 10, 10, 20)])
    #expect(plan.bands.count == 2)
  }

  /// Three stamps in two bands, one band holding two stamps side by side in different columns: every stamp is
  /// drawn where it belongs and the photo between and around them is untouched.
  @Test func stampsInSeveralBandsAreAllDrawnAndTheRestIsUntouched() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.picture("base.png", width: 200, height: 160, bands: 3) { x, y in
      [UInt8(x), UInt8(y), 7]
    }
    let red = try fixtures.solid("red.png", width: 10, height: 10, pixel: [255, 0, 0, 255])
    func at(_ x: Double, _ y: Double) -> RenderPlan.Stamp {
      .init(
        image: red,
        placement: PlacedStamp(id: "r", center: StampPoint(x, y), size: StampSize(10, 10), scale: 1, rotation: 0))
    }
    let output = fixtures.path("out.png")
    try Renderer().render(RenderPlan(base: base, stamps: [at(20, 20), at(180, 24), at(100, 130)]), to: output)
    let pixels = try Pixels(output)
    #expect(pixels.width == 200 && pixels.height == 160)
    var stamped = 0
    for y in 0..<160 {
      for x in 0..<200 {
        let inside = [(20, 20), (180, 24), (100, 130)].contains {
          abs(Double(x) + 0.5 - Double($0.0)) < 5 && abs(Double(y) + 0.5 - Double($0.1)) < 5
        }
        if inside {
          stamped += 1
          #expect(pixels[x, y] == [255, 0, 0], "(\(x), \(y))")
        } else {
          #expect(pixels[x, y] == [UInt8(x), UInt8(y), 7], "(\(x), \(y))")
        }
      }
    }
    #expect(stamped == 300)
  }
}

extension BandPlanTests {
  /// Past `layersPerComposite` stamps in a band, groups are drawn one over the other (libvips held some megabytes
  /// for every input of one composite: 1,000 stamps took 1.9 GB). Opaque stamps come out exactly as from one
  /// composite, translucent ones within the rounding of the groups' 8-bit results.
  @Test func manyStampsDrawnInGroupsMatchOneComposite() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.solid("base.png", width: 60, height: 40, pixel: [30, 60, 90])
    let opaque = try fixtures.solid("opaque.png", width: 6, height: 6, pixel: [250, 10, 10, 255])
    let glass = try fixtures.solid("glass.png", width: 6, height: 6, pixel: [10, 250, 10, 100])
    var stamps: [RenderPlan.Stamp] = []
    for i in 0..<23 {
      let center = StampPoint(Double(8 + (i * 7) % 44), Double(10 + (i * 5) % 20))
      let scale = 1 + Double(i % 4) / 2
      let placement = PlacedStamp(
        id: "s\(i)", center: center, size: StampSize(6, 6), scale: scale, rotation: Double(i * 17))
      stamps.append(RenderPlan.Stamp(image: i % 3 == 0 ? opaque : glass, placement: placement))
    }
    var once = Renderer()
    once.compositor.layersPerComposite = 100
    var grouped = Renderer()
    grouped.compositor.layersPerComposite = 4
    try once.render(RenderPlan(base: base, stamps: stamps), to: fixtures.path("once.png"))
    try grouped.render(RenderPlan(base: base, stamps: stamps), to: fixtures.path("grouped.png"))
    let a = try DecodedImage(contentsOf: fixtures.path("once.png")).samples
    let b = try DecodedImage(contentsOf: fixtures.path("grouped.png")).samples
    let plain = try DecodedImage(contentsOf: base).samples
    #expect(a.count == b.count && a != plain)
    let differences: [Int] = zip(a, b).map { abs(Int($0) - Int($1)) }
    #expect((differences.max() ?? 0) <= 3)
  }
}
