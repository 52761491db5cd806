import CVipsGlue
import Foundation
import StampCore
import StampTestShim
import StampTestSupport
import Testing

@testable import StampRender

@Suite("JPEG transplant: untouched blocks stay bit-exact, orientation and metadata")
struct JPEGTransplantTests {
  /// The blocks of a component whose pixels (block size `bw` x `bh`) meet any of the pixel rectangles.
  static func blocks(meeting rects: [GridRect], bw: Int, bh: Int) -> Set<BlockIndex> {
    var result = Set<BlockIndex>()
    for r in rects {
      for y in (r.top / bh)...((r.bottom - 1) / bh) {
        for x in (r.left / bw)...((r.right - 1) / bw) { result.insert(BlockIndex(x: x, y: y)) }
      }
    }
    return result
  }

  /// Both lossless ways a baseline photo can take: its scan spliced (the default), or every coefficient read.
  static func renderer(splicing: Bool) -> (Renderer, RenderPath) {
    var renderer = Renderer()
    renderer.splicesScans = splicing
    return (renderer, splicing ? .spliced : .transplant)
  }

  @Test(arguments: [Subsampling.none, .half], [true, false])
  func untouchedBlocksAreBitExactAndOnlyStampedOnesChange(_ subsampling: Subsampling, splicing: Bool) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.jpeg(
      "base.jpg", width: 160, height: 120, subsampling: subsampling, icc: true,
      fields: ["exif-ifd3-GPSLatitude": "51 28 40", "exif-ifd0-Make": "LeakyCam"]
    ) { Fixtures.texture($0, $1) }
    let red = try fixtures.solid("red.png", width: 40, height: 30, pixel: [255, 0, 0, 255])
    let square = try fixtures.solid("sq.png", width: 20, height: 20, pixel: [0, 0, 255, 255])
    let plan = RenderPlan(
      base: base,
      stamps: [
        .init(
          image: red,
          placement: PlacedStamp(id: "r", center: StampPoint(100, 80), size: StampSize(40, 30), scale: 1, rotation: 0)
        ),
        .init(
          image: square,
          placement: PlacedStamp(id: "s", center: StampPoint(5, 5), size: StampSize(20, 20), scale: 1, rotation: 45)),
      ])
    let output = fixtures.path("out.jpg")
    let (renderer, path) = Self.renderer(splicing: splicing)
    #expect(try JPEGTransplant.transplant(plan, to: output, with: renderer) == path)
    // The red stamp covers [80, 120) x [65, 95), the turned square reaches 10 sqrt 2 = 14.1 from (5, 5); bicubic
    // reaches one pixel further. No other pixel may change, so no block away from these may change.
    let touched = [
      GridRect(left: 79, top: 64, width: 42, height: 32), GridRect(left: 0, top: 0, width: 21, height: 21),
    ]
    let chroma = subsampling == .half ? 16 : 8
    for component in 0..<3 {
      let size = component == 0 ? 8 : chroma
      let diff = try differingBlocks(base, output, component: component)
      let allowed = Self.blocks(meeting: touched, bw: size, bh: size)
      #expect(
        diff.blocks.isSubset(of: allowed),
        "component \(component): \(diff.blocks.subtracting(allowed).sorted { ($0.y, $0.x) < ($1.y, $1.x) })")
      #expect(!diff.blocks.isEmpty)
      #expect(diff.wide == (160 + size - 1) / size && diff.high == (120 + size - 1) / size)
    }
    // Luma blocks wholly under the opaque red stamp: columns 10...14, rows 9...10.
    let core = Self.blocks(meeting: [GridRect(left: 80, top: 72, width: 40, height: 16)], bw: 8, bh: 8)
    #expect(try differingBlocks(base, output, component: 0).blocks.isSuperset(of: core))
    let pixels = try Pixels(output)
    #expect(pixels[100, 80].map(Int.init).elementsEqual([255, 0, 0]) { abs($0 - $1) <= 6 })
    let written = try Image.open(output, sequential: false)
    #expect(scv_has_field(written.pointer, "icc-profile-data") != 0)
    #expect(scv_has_field(written.pointer, "exif-ifd3-GPSLatitude") == 0)
    #expect(scv_has_field(written.pointer, "exif-ifd0-Make") == 0)
    #expect(written.orientation == 1)
  }

  /// A 150 x 107 photo ends inside its last iMCU column and row: a stamp clipped there is drawn up to the last
  /// pixel, and blocks away from it stay the source's.
  @Test(arguments: [Subsampling.none, .half], [true, false])
  func stampAtRaggedEdgesIsDrawnToTheLastPixel(_ subsampling: Subsampling, splicing: Bool) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.jpeg("base.jpg", width: 150, height: 107, subsampling: subsampling) {
      Fixtures.texture($0, $1)
    }
    let red = try fixtures.solid("red.png", width: 30, height: 30, pixel: [255, 0, 0, 255])
    let plan = RenderPlan(
      base: base, stamp: red,
      placement: PlacedStamp(id: "r", center: StampPoint(145, 103), size: StampSize(30, 30), scale: 1, rotation: 0))
    let output = fixtures.path("out.jpg")
    let (renderer, path) = Self.renderer(splicing: splicing)
    #expect(try JPEGTransplant.transplant(plan, to: output, with: renderer) == path)
    let pixels = try Pixels(output)
    #expect(pixels.width == 150 && pixels.height == 107)
    for (x, y) in [(149, 106), (134, 92), (140, 100)] {
      #expect(
        pixels[x, y].map(Int.init).elementsEqual([255, 0, 0]) { abs($0 - $1) <= 8 }, "(\(x), \(y)): \(pixels[x, y])")
    }
    // The stamp covers [130, 150) x [88, 107); bicubic reaches one pixel further.
    let chroma = subsampling == .half ? 16 : 8
    for component in 0..<3 {
      let size = component == 0 ? 8 : chroma
      let allowed = Self.blocks(meeting: [GridRect(left: 129, top: 87, width: 21, height: 20)], bw: size, bh: size)
      let diff = try differingBlocks(base, output, component: component)
      #expect(!diff.blocks.isEmpty && diff.blocks.isSubset(of: allowed), "component \(component): \(diff.blocks)")
    }
  }

  /// With no stamp on the photo, every block of the output is the source's.
  @Test(arguments: [Subsampling.none, .half])
  func noStampsMeansEveryBlockIsTheSource(_ subsampling: Subsampling) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.jpeg("base.jpg", width: 100, height: 70, subsampling: subsampling) {
      Fixtures.texture($0, $1)
    }
    let output = fixtures.path("out.jpeg")
    try Renderer().render(RenderPlan(base: base, stamps: []), to: output)
    for component in 0..<3 {
      #expect(try differingBlocks(base, output, component: component).blocks.isEmpty)
    }
  }

  /// A base stored 320 x 240 with orientation 6 keeps its stored frame and its tag; shown upright, the stamp sits
  /// where the upright plan put it, and blocks away from it are the source's.
  /// With restart markers too (every MCU row: 20 MCUs), when only the intervals under the stamp are encoded again
  /// and the header comes from their JPEG: the tag and the ICC profile are kept there as well.
  @Test(arguments: [0, 20])
  func orientationSixKeepsTheTagAndPlacesTheStampUpright(restartInterval: Int) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.jpeg(
      "base.jpg", width: 320, height: 240, subsampling: .half, orientation: 6, icc: true,
      restartInterval: restartInterval
    ) { Fixtures.texture($0, $1) }
    let red = try fixtures.solid("red.png", width: 24, height: 24, pixel: [255, 0, 0, 255])
    let center = StampPoint(60, 250)
    let plan = RenderPlan(
      base: base,
      stamps: [
        .init(
          image: red, placement: PlacedStamp(id: "r", center: center, size: StampSize(24, 24), scale: 1, rotation: 0))
      ])
    let output = fixtures.path("out.jpg")
    try Renderer().render(plan, to: output)
    let written = try Image.open(output, sequential: false)
    #expect(written.orientation == 6 && written.width == 320 && written.height == 240)
    #expect(scv_has_field(written.pointer, "icc-profile-data") != 0)
    // Restart markers survive only when the untouched intervals were copied.
    #expect(try EntropyIntervals(path: output).intervals.count == (restartInterval > 0 ? 15 : 1))
    let upright = try uprightPixels(output)
    #expect(upright.width == 240 && upright.height == 320)
    let found = upright.centroid { $0[0] > 180 && $0[1] < 70 && $0[2] < 70 ? 1 : 0 }
    #expect(abs(found.x - center.x) < 0.6 && abs(found.y - center.y) < 0.6, "red centroid \(found)")
    // Upright [48, 72) x [238, 262) is stored x = v in [238, 262), y = 240 - u in [168, 192); one pixel of reach.
    let allowed = Self.blocks(meeting: [GridRect(left: 237, top: 167, width: 26, height: 26)], bw: 8, bh: 8)
    let diff = try differingBlocks(base, output, component: 0)
    #expect(!diff.blocks.isEmpty && diff.blocks.isSubset(of: allowed))
  }
}

extension JPEGTransplantTests {
  /// A file that never defines the quantization table its chroma names, read by a codec that read a good photo
  /// before: libjpeg keeps an earlier file's tables, so the codec starts every file afresh, and this one fails
  /// ("table 0x01 was not defined") instead of being read with the other photo's table.
  @Test func aCodecForgetsTheTablesOfTheFileBefore() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let good = try fixtures.jpeg("good.jpg", width: 48, height: 32, subsampling: .half) { Fixtures.texture($0, $1) }
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
    // libvips writes one DQT segment per table: remove the second (table 1, the chroma's).
    let segments = bytes.markers(0xDB)
    try #require(segments.count == 2)
    let length = Int(bytes[segments[1] + 2]) << 8 | Int(bytes[segments[1] + 3])
    bytes.removeSubrange(segments[1]..<(segments[1] + 2 + length))
    let damaged = fixtures.path("no-chroma-table.jpg")
    try Data(bytes).write(to: URL(fileURLWithPath: damaged))
    let codec = try #require(JPEGCodec())
    _ = try codec.open(good)
    try codec.readCoefficients()
    codec.close()
    _ = try codec.open(damaged)
    #expect(throws: RenderError.self) { try codec.readCoefficients() }
  }
}
