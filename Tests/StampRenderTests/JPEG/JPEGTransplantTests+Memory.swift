import Foundation
import StampCore
import StampTestSupport
import Testing

@testable import StampRender

@Suite("The JPEG path's memory: tall regions in strips, and coefficient arrays kept from file to file")
struct JPEGMemoryTests {
  /// Hand-worked: a region of iMCU rows 3 ..< 13 in strips of 4 rows.
  @Test func stripsCutARegionWithTheContextTheirBlocksNeed() {
    let map = BlockMap(width: 400, height: 400, sampling: [.init(2, 2), .init(1, 1), .init(1, 1)])
    let region = GridRect(left: 2, top: 3, width: 5, height: 10)
    let strips = map.strips(of: region, rows: 4, margin: 1)
    // Own rows 3-6, 7-10, 11-12; each decoded with one more row above and below, but never outside the region.
    #expect(strips.map(\.rows) == [3..<7, 7..<11, 11..<13])
    #expect(
      strips.map(\.decode) == [
        GridRect(left: 2, top: 3, width: 5, height: 5), GridRect(left: 2, top: 6, width: 5, height: 6),
        GridRect(left: 2, top: 10, width: 5, height: 3),
      ])
    // Without margin each strip decodes its own rows; a strip as tall as the region is the region.
    #expect(map.strips(of: region, rows: 4, margin: 0).map(\.decode.height) == [4, 4, 2])
    #expect(map.strips(of: region, rows: 10, margin: 1).map(\.decode) == [region])
    #expect(map.strips(of: region, rows: 0, margin: 0).count == 10)
  }

  /// A big turned stamp over most of a 160 x 240 photo, drawn in strips of one or two iMCU rows and all at once:
  /// the outputs are the same bytes (for 4:2:0 only because each strip decodes with a row of context around it).
  @Test(arguments: [
    JPEGLayout(subsampling: .none), JPEGLayout(subsampling: .half), JPEGLayout(subsampling: .half, restartInterval: 10),
  ])
  func drawingInStripsChangesNoByte(_ c: JPEGLayout) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.jpeg(
      "base.jpg", width: 160, height: 240, subsampling: c.subsampling, restartInterval: c.restartInterval
    ) { Fixtures.texture($0, $1) }
    // Opaque, its colour changing across it, so that every block under it changes.
    let stamp = try fixtures.picture("stamp.png", width: 24, height: 24, bands: 4) { x, y in
      [UInt8(40 + x * 8), UInt8(220 - y * 7), UInt8((x * y) % 200), 255]
    }
    let plan = RenderPlan(
      base: base,
      stamps: [
        .init(
          image: stamp,
          placement: PlacedStamp(
            id: "s", center: StampPoint(75, 118), size: StampSize(24, 24), scale: 6.5, rotation: 33))
      ])
    var strips = Renderer()
    strips.stripHeight = 1
    let thin = fixtures.path("thin.jpg")
    try strips.render(plan, to: thin)
    let whole = fixtures.path("whole.jpg")
    try Renderer().render(plan, to: whole)
    #expect(FileManager.default.contentsEqual(atPath: thin, andPath: whole))
    for component in 0..<3 {
      let differing = try differingBlocks(thin, whole, component: component).blocks
      #expect(differing.isEmpty, "component \(component): \(differing.sorted { ($0.y, $0.x) < ($1.y, $1.x) })")
    }
    // The stamp was drawn, over most rows of blocks.
    let changed = try differingBlocks(whole, base, component: 0)
    #expect(Set(changed.blocks.map(\.y)).count > changed.high * 2 / 3)
  }

  /// One codec reads and writes photos of different sizes and samplings in turn, bigger, smaller, bigger again,
  /// then enough small ones that it gives the big buffer back, then a big one: every output holds exactly its own
  /// photo's coefficients (none left over from the photo before, whose arrays' memory it reuses).
  @Test func aCodecReusesItsArraysAcrossPhotosOfEverySize() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let big = try fixtures.jpeg("big.jpg", width: 320, height: 200, subsampling: .none) { Fixtures.texture($0, $1) }
    let small = try fixtures.jpeg("small.jpg", width: 40, height: 24, subsampling: .half) {
      [UInt8($1 * 9), 200, UInt8($0 * 5)]
    }
    let bigger = try fixtures.jpeg("bigger.jpg", width: 400, height: 240, subsampling: .half) {
      Fixtures.texture($0 + 7, $1)
    }
    let codec = try #require(JPEGCodec())
    let sources = [big, small, big, bigger] + Array(repeating: small, count: 9) + [big]
    for (k, source) in sources.enumerated() {
      _ = try codec.open(source)
      try codec.readCoefficients()
      let output = fixtures.path("out-\(k).jpg")
      try codec.write(to: output, orientation: 1)
      codec.close()
      for component in 0..<3 {
        #expect(try differingBlocks(output, source, component: component).blocks.isEmpty, "\(k): \(source)")
      }
    }
  }
}
