import Foundation
import StampCore
import StampTestSupport
import Testing

@testable import StampRender

@Suite("Shrink on load: a stamp is decoded only as large as it is drawn")
struct ShrinkOnLoadTests {
  /// Worked by hand: 8000 px drawn 50 px wide stretches by 50 / 8000 = 0.00625; 1 / (4 * 0.00625) = 40, so the
  /// factor is 32 (decoded 250 px across, 5 times the 50 drawn). Drawn at its own size or larger: 1; at 0.13,
  /// 1 / 0.52 = 1.9: 1; at 0.12, 1 / 0.48 = 2.08: 2. A 3 x 0.5 stretch is limited by the 3. A 10 x 10 stamp drawn
  /// 0.1 px wide: 1 / 0.04 = 25, but the stamp has 10 px, so 8.
  @Test func theFactorLeavesFourTimesTheDrawnSize() {
    let big = StampSize(8000, 8000)
    #expect(StampShrink.factor(size: big, linear: (0.00625, 0, 0, 0.00625)) == 32)
    #expect(StampShrink.factor(size: big, linear: (1, 0, 0, 1)) == 1)
    #expect(StampShrink.factor(size: big, linear: (0.13, 0, 0, 0.13)) == 1)
    #expect(StampShrink.factor(size: big, linear: (0.12, 0, 0, 0.12)) == 2)
    #expect(StampShrink.factor(size: big, linear: (0.5, 0, 0, 0.003)) == 1)
    // Turned 30 degrees at scale 0.01: the stretch is 0.01 whatever the angle; 1 / 0.04 = 25, so 16.
    let (c, s) = (0.01 * cos(Double.pi / 6), 0.01 * sin(Double.pi / 6))
    #expect(abs(StampShrink.largestStretch((c, -s, s, c)) - 0.01) < 1e-15)
    #expect(StampShrink.factor(size: big, linear: (c, -s, s, c)) == 16)
    #expect(StampShrink.largestStretch((2, 0, 0, -3)) == 3)
    #expect(StampShrink.factor(size: StampSize(10, 10), linear: (0.01, 0, 0, 0.01)) == 8)
    // ceil(8000 / 32) = 250; ceil(777 / 8) x ceil(489 / 8) = 98 x 62.
    #expect(StampShrink.decodedPixels(width: 8000, height: 8000, factor: 32) == 62_500)
    #expect(StampShrink.decodedPixels(width: 777, height: 489, factor: 8) == 6_076)
  }

  /// A 4000 x 4000 stamp drawn 50 px wide was decoded whole (4000 x 4000 x 4 bytes = 64 MB held).
  /// Now at a factor of 16 (1 / (4 x 50 / 4000) = 20): 250 x 250 x 4 = 250,000 bytes. Its opaque middle square,
  /// 2000 px of 4000, is drawn 25 px wide about the centre: 625 pixels of full coverage.
  @Test func aHugeStampDrawnSmallIsDecodedSmall() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let side = 4000
    var samples = [UInt8](repeating: 0, count: side * side * 4)
    for y in 1000..<3000 {
      for x in 1000..<3000 {
        samples.replaceSubrange((y * side + x) * 4..<(y * side + x) * 4 + 4, with: [255, 0, 0, 255])
      }
    }
    let stamp = fixtures.path("huge.png")
    try ImageWriter.write(
      Image.fromPixels(samples, width: side, height: side, bands: 4), to: stamp, format: .png, quality: 90)
    samples = []
    let base = try Image.fromPixels([UInt8](repeating: 0, count: 200 * 160 * 3), width: 200, height: 160, bands: 3)
    let renderer = Renderer()
    let center = StampPoint(100.3, 80.6)
    let placed = PlacedStamp(id: "s", center: center, size: StampSize(4000, 4000), scale: 50.0 / 4000, rotation: 0)
    let image = try renderer.compositor.composite([.init(image: stamp, placement: placed)], onto: base, map: .identity)
    let drawn = Pixels(width: 200, height: 160, bands: 3, samples: try image.pixels())
    #expect(renderer.cache.heldBytes == 250_000)
    let red = drawn.centroid { Double($0[0]) }
    #expect(abs(red.x - center.x) < 0.1 && abs(red.y - center.y) < 0.1, "centroid \(red)")
    #expect(abs(red.mass / 255 - 625) < 625 * 0.01)
  }

  /// A 777 x 489 black JPEG stamp with a white Gaussian blob (sigma a tenth of each side) about its centre, stored
  /// with each EXIF orientation that pads a different side (PNG holds none in libvips 8.14), lands on its point to 0.1 px at scales that shrink it
  /// on load by 4 (0.05: 1 / 0.2 = 5), 8 (0.025) and 16 (0.015), upright and turned: the padding to whole blocks
  /// ends up right and bottom, where it moves no point (777 is 7 short of 98 blocks of 8: 0.175 px if misplaced).
  /// At 776 x 488, which 8 divides, libjpeg's scaled decoding takes up to 8 of each factor and the box the rest.
  @Test(arguments: [1, 3, 6, 8], [(777, 489), (776, 488)])
  func aShrunkStampLandsOnItsCentre(_ orientation: Int, _ size: (Int, Int)) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let (width, height) = orientation >= 5 ? (size.1, size.0) : size
    let stamp = try fixtures.picture("blob.jpg", width: width, height: height, bands: 3, orientation: orientation) {
      x, y in
      let dx = (Double(x) + 0.5 - Double(width) / 2) / (Double(width) / 10)
      let dy = (Double(y) + 0.5 - Double(height) / 2) / (Double(height) / 10)
      let value = UInt8((255 * exp(-(dx * dx + dy * dy) / 2)).rounded())
      return [value, value, value]
    }
    let base = try Image.fromPixels([UInt8](repeating: 0, count: 240 * 200 * 3), width: 240, height: 200, bands: 3)
    let center = StampPoint(120.3, 100.7)
    var misses: [String] = []
    for scale in [0.05, 0.025, 0.015] {
      for rotation in [0.0, 30] {
        let placed = PlacedStamp(
          id: "b", center: center, size: StampSize(Double(size.0), Double(size.1)), scale: scale, rotation: rotation)
        let image = try Renderer().compositor.composite(
          [.init(image: stamp, placement: placed)], onto: base, map: .identity)
        let found = ReductionTests.centroid(ofFirstBand: try image.pixels(), width: 240, bands: 3)
        if abs(found.x - center.x) > 0.1 || abs(found.y - center.y) > 0.1 {
          misses.append("scale \(scale) turned \(rotation): (\(found.x), \(found.y))")
        }
      }
    }
    #expect(misses.isEmpty, "off by more than 0.1 px: \(misses.joined(separator: ", "))")
  }

  /// Stored with orientation 6 (turn 90 degrees clockwise to show), a stamp whose stored top half is green shows
  /// green on its right: shrunk on load, it is turned upright after the shrink. Drawn 38.85 x 24.45 px (factor 4),
  /// the green half's centroid lies a quarter of the width, 9.7 px, right of the centre.
  @Test func aShrunkStampIsTurnedUpright() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let stamp = try fixtures.picture("turned.jpg", width: 489, height: 777, bands: 3, orientation: 6) { _, y in
      y < 777 / 2 ? [0, 255, 0] : [255, 0, 0]
    }
    let base = try Image.fromPixels([UInt8](repeating: 0, count: 240 * 200 * 3), width: 240, height: 200, bands: 3)
    let placed = PlacedStamp(
      id: "t", center: StampPoint(120, 100), size: StampSize(777, 489), scale: 0.05, rotation: 0)
    let renderer = Renderer()
    let image = try renderer.compositor.composite([.init(image: stamp, placement: placed)], onto: base, map: .identity)
    #expect(renderer.cache.holds(stamp, shrink: 4))
    let drawn = Pixels(width: 240, height: 200, bands: 3, samples: try image.pixels())
    let green = drawn.centroid { Double($0[1]) }
    #expect(abs(green.x - (120 + 38.85 / 4)) < 0.5 && abs(green.y - 100) < 0.5, "green centroid \(green)")
  }

  /// A job's stamps may decode to `limit` pixels in all: two 100 x 100 stamps drawn at their size (20,000 pixels,
  /// the second drawn twice but counted once) fit a limit of 20,000; a third passes it and fails, named.
  @Test func aJobsStampsDecodeWithinItsBudget() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let stamps = try ["a", "b", "c"].map {
      try fixtures.solid("\($0).png", width: 100, height: 100, pixel: [9, 9, 9, 255])
    }
    let base = try Image.fromPixels([UInt8](repeating: 0, count: 300 * 200 * 3), width: 300, height: 200, bands: 3)
    func placed(_ path: String) -> RenderPlan.Stamp {
      .init(
        image: path,
        placement: PlacedStamp(id: "s", center: StampPoint(150, 100), size: StampSize(100, 100), scale: 1, rotation: 0))
    }
    let budget = StampBudget(limit: 20_000)
    let renderer = Renderer().forJob(JobContext(budget: budget))
    _ = try renderer.compositor.composite(
      stamps.prefix(2).map(placed) + [placed(stamps[1])], onto: base, map: .identity)
    #expect(budget.total == 20_000)
    #expect {
      _ = try renderer.compositor.composite([placed(stamps[2])], onto: base, map: .identity)
    } throws: { error in
      "\(error)".contains(stamps[2]) && "\(error)".contains("30000 pixels, over the limit of 20000 a job")
    }
  }
}
