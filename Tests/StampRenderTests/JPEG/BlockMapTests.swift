import StampCore
import Testing

@testable import StampRender

@Suite("Block bookkeeping: which iMCUs and blocks a stamp touches")
struct BlockMapTests {
  static let yuv444 = [BlockMap.Sampling(1, 1), .init(1, 1), .init(1, 1)]
  static let yuv420 = [BlockMap.Sampling(2, 2), .init(1, 1), .init(1, 1)]
  static let yuv422 = [BlockMap.Sampling(2, 1), .init(1, 1), .init(1, 1)]

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var placement: PlacedStamp
    var orientation: Int
    /// The box the renderer's layer covers in stored pixels and the iMCUs it touches for 4:4:4 (8 x 8) and 4:2:0
    /// (16 x 16), worked out by hand in the comments below for a stored frame of 64 x 48 and an opaque stamp of
    /// the placement's size: the stamp's outline carried into the stored frame, grown by the renderer's 1 pixel and
    /// then by the 2 source pixels (here 2 * scale image pixels along the stamp's axes) of the resampler's reach,
    /// rounded outwards and cut to the frame.
    var box: GridRect
    var mcus444: GridRect
    var mcus420: GridRect
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    // 20 x 20 turned 45 degrees about (10, 12); the opaque stamp's outline grown by 2 is 24 x 24, corners
    // 12 sqrt 2 = 16.971 away along the axes: x in [-6.971, 26.971], y in [-4.971, 28.971]; 1 px more, rounded
    // out, cut at 0: [0, 28) x [0, 30). 8 px iMCUs: columns 0 ..< 4, rows 0 ..< 4. 16 px: 0 ..< 2 both ways.
    Case(
      name: "45 degrees, clipped at the top-left",
      placement: PlacedStamp(id: "a", center: StampPoint(10, 12), size: StampSize(20, 20), scale: 1, rotation: 45),
      orientation: 1,
      box: GridRect(left: 0, top: 0, width: 28, height: 30),
      mcus444: GridRect(left: 0, top: 0, width: 4, height: 4),
      mcus420: GridRect(left: 0, top: 0, width: 2, height: 2)),
    // 16 x 8 at scale 2 turned 30 degrees about (60, 40); grown by 2 source pixels: 20 x 12, half extents 20 and
    // 12 in the image. x reaches 20 cos 30 + 12 sin 30 = 23.321, y reaches 20 sin 30 + 12 cos 30 = 20.392:
    // x in [36.679, 83.321], y in [19.608, 60.392]; 1 px more, rounded out, cut at 64 x 48: [35, 64) x [18, 48).
    // 8 px: columns 4 ..< 8, rows 2 ..< 6. 16 px: columns 2 ..< 4, rows 1 ..< 3.
    Case(
      name: "30 degrees, scale 2, clipped at the bottom-right",
      placement: PlacedStamp(id: "b", center: StampPoint(60, 40), size: StampSize(16, 8), scale: 2, rotation: 30),
      orientation: 1,
      box: GridRect(left: 35, top: 18, width: 29, height: 30),
      mcus444: GridRect(left: 4, top: 2, width: 4, height: 4),
      mcus420: GridRect(left: 2, top: 1, width: 2, height: 2)),
    // Orientation 6 (stored 64 x 48, upright 48 x 64): upright (u, v) is stored at (v, 48 - u). An 8 x 8 stamp at
    // upright (40, 8) covers u in [36, 44), v in [4, 12): stored x in [4, 12), y in [4, 12); grown by 2 + 1:
    // [1, 15) both ways. 8 px: 0 ..< 2 both ways; 16 px: 0 ..< 1.
    Case(
      name: "upright plan carried into an orientation-6 stored frame",
      placement: PlacedStamp(id: "c", center: StampPoint(40, 8), size: StampSize(8, 8), scale: 1, rotation: 0),
      orientation: 6,
      box: GridRect(left: 1, top: 1, width: 14, height: 14),
      mcus444: GridRect(left: 0, top: 0, width: 2, height: 2),
      mcus420: GridRect(left: 0, top: 0, width: 1, height: 1)),
  ]

  @Test(arguments: cases)
  func rotatedClippedStampTouchesTheMCUsWorkedOutByHand(_ c: Case) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let size = c.placement.size
    let image = try fixtures.solid(
      "stamp.png", width: Int(size.width), height: Int(size.height), pixel: [200, 100, 50, 255])
    let map = PlaneMap.uprightToStored(orientation: c.orientation, width: 64, height: 48)
    let layers = try Renderer().compositor.layers(
      [.init(image: image, placement: c.placement)], map: map, width: 64, height: 48)
    let box = try #require(layers.first?.box)
    #expect(layers.count == 1)
    #expect(box == c.box)
    #expect(BlockMap(width: 64, height: 48, sampling: Self.yuv444).mcus(touching: box) == c.mcus444)
    #expect(BlockMap(width: 64, height: 48, sampling: Self.yuv420).mcus(touching: box) == c.mcus420)
  }

  @Test func stampWhollyOffThePhotoHasNoLayer() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let image = try fixtures.solid("stamp.png", width: 20, height: 20, pixel: [200, 100, 50, 255])
    for center in [StampPoint(-40, 20), StampPoint(.nan, 20)] {
      let placement = PlacedStamp(id: "o", center: center, size: StampSize(20, 20), scale: 1, rotation: 10)
      let layers = try Renderer().compositor.layers(
        [.init(image: image, placement: placement)], map: .identity, width: 64, height: 48)
      #expect(layers.isEmpty)
    }
  }

  /// Regions are the touched iMCUs plus one of margin; overlapping ones merge, merely adjacent ones do not.
  @Test func regionsGrowByOneMCUAndMergeWhenTheyOverlap() {
    let frame = BlockMap(width: 64, height: 48, sampling: Self.yuv444)
    // The first two cases above: [0, 4) x [0, 4) grown to [0, 5) x [0, 5); [4, 8) x [2, 6) grown to [3, 8) x [1, 6).
    let boxes = [GridRect(left: 0, top: 0, width: 28, height: 30), GridRect(left: 35, top: 18, width: 29, height: 30)]
    #expect(frame.regions(touching: boxes, margin: 1) == [GridRect(left: 0, top: 0, width: 8, height: 6)])
    let wide = BlockMap(width: 640, height: 480, sampling: Self.yuv444)
    // iMCU columns 1, 12 and 4: grown to [0, 3), [11, 14), [3, 6): the first and third only touch.
    let apart = [
      GridRect(left: 10, top: 10, width: 5, height: 5), GridRect(left: 96, top: 10, width: 5, height: 5),
      GridRect(left: 32, top: 10, width: 1, height: 5),
    ]
    #expect(
      wide.regions(touching: apart, margin: 1) == [
        GridRect(left: 0, top: 0, width: 3, height: 3), GridRect(left: 3, top: 0, width: 3, height: 3),
        GridRect(left: 11, top: 0, width: 3, height: 3),
      ])
  }

  /// Many boxes in any order merge into the regions a plain reference makes (merge any two that overlap, start over,
  /// until none do): the same regions, none overlapping another, every box's iMCUs inside one.
  @Test func manyBoxesMergeAsAPlainReferenceMerges() {
    let map = BlockMap(width: 1600, height: 1200, sampling: Self.yuv420)
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(truncatingIfNeeded: state >> 33) % bound
    }
    for round in 0..<20 {
      let count = 1 + next(round < 10 ? 40 : 300)
      let boxes = (0..<count).map { _ in
        GridRect(left: next(1560), top: next(1160), width: 1 + next(60), height: 1 + next(60))
      }
      var reference = boxes.compactMap { map.mcus(touching: $0)?.grown(by: 1, within: map.mcusWide, map.mcusHigh) }
      var again = true
      while again {
        again = false
        search: for i in reference.indices {
          for j in reference.indices where j != i && reference[i].intersects(reference[j]) {
            reference[min(i, j)] = reference[i].union(reference[j])
            reference.remove(at: max(i, j))
            again = true
            break search
          }
        }
      }
      let regions = map.regions(touching: boxes, margin: 1)
      #expect(Set(regions) == Set(reference), "round \(round): \(count) boxes")
      #expect(regions.count == Set(regions).count)
      let overlapping = regions.indices.flatMap { i in
        regions.indices.filter { $0 > i && regions[i].intersects(regions[$0]) }
      }
      #expect(overlapping.isEmpty)
    }
  }

  /// Without margin the same boxes keep to their own iMCUs: [0, 4) x [0, 4) and [4, 8) x [2, 6) only touch.
  @Test func regionsWithoutMarginAreTheTouchedMCUs() {
    let frame = BlockMap(width: 64, height: 48, sampling: Self.yuv444)
    let boxes = [GridRect(left: 0, top: 0, width: 28, height: 30), GridRect(left: 35, top: 18, width: 29, height: 30)]
    #expect(
      frame.regions(touching: boxes, margin: 0) == [
        GridRect(left: 0, top: 0, width: 4, height: 4), GridRect(left: 4, top: 2, width: 4, height: 4),
      ])
  }

  /// Subsampled chroma is upsampled from neighbouring samples, so a region needs an iMCU of margin; equal
  /// sampling everywhere (4:4:4, or every component 2x2) decodes each block alone.
  @Test func marginOnlyWhereChromaIsSubsampled() {
    #expect(BlockMap(width: 64, height: 48, sampling: Self.yuv444).regionMargin == 0)
    #expect(BlockMap(width: 64, height: 48, sampling: Self.yuv420).regionMargin == 1)
    #expect(BlockMap(width: 64, height: 48, sampling: [.init(2, 1), .init(1, 1), .init(1, 1)]).regionMargin == 1)
    #expect(BlockMap(width: 64, height: 48, sampling: [.init(2, 2), .init(2, 2), .init(2, 2)]).regionMargin == 0)
  }

  @Test func regionPixelsStopAtTheImageEdge() {
    let frame = BlockMap(width: 70, height: 50, sampling: Self.yuv420)
    #expect(frame.mcusWide == 5 && frame.mcusHigh == 4)
    #expect(
      frame.pixels(of: GridRect(left: 4, top: 3, width: 1, height: 1))
        == GridRect(left: 64, top: 48, width: 6, height: 2))
  }

  struct ChangeCase: CustomTestStringConvertible, Sendable {
    var name: String
    var sampling: [BlockMap.Sampling]
    /// Per component: blocks wide, high, and the one marked block's index, for one changed pixel at (17, 9) of a
    /// 20 x 32 region. Luma blocks are 8 x 8 (3 x 4 of them: the pixel is in column 2, row 1, index 5); a chroma
    /// block covers 8 hmax / h x 8 vmax / v pixels.
    var expected: [(wide: Int, high: Int, index: Int)]
    var testDescription: String { name }
  }

  static let changeCases: [ChangeCase] = [
    ChangeCase(name: "4:4:4", sampling: yuv444, expected: [(3, 4, 5), (3, 4, 5), (3, 4, 5)]),
    // 16 x 16 chroma blocks: 2 x 2 of them, the pixel in column 1, row 0.
    ChangeCase(name: "4:2:0", sampling: yuv420, expected: [(3, 4, 5), (2, 2, 1), (2, 2, 1)]),
    // 16 x 8 chroma blocks: 2 x 4 of them, the pixel in column 1, row 1.
    ChangeCase(name: "4:2:2", sampling: yuv422, expected: [(3, 4, 5), (2, 4, 3), (2, 4, 3)]),
  ]

  @Test(arguments: changeCases)
  func onlyBlocksCoveringAChangedPixelAreMarked(_ c: ChangeCase) {
    let (width, height) = (20, 32)
    let before = [UInt8](repeating: 50, count: width * height * 3)
    var after = before
    after[(9 * width + 17) * 3 + 2] = 51
    let masks = BlockMap(width: 200, height: 200, sampling: c.sampling)
      .changedBlocks(width: width, height: height, before: before, after: after, bands: 3)
    #expect(masks.count == 3)
    for (mask, expected) in zip(masks, c.expected) {
      var wanted = [UInt8](repeating: 0, count: expected.wide * expected.high)
      wanted[expected.index] = 1
      #expect(mask == wanted)
    }
  }
}
