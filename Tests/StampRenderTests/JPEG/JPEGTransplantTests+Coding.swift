import Foundation
import StampCore
import StampTestSupport
import Testing

@testable import StampRender

/// A photo's coding: its chroma subsampling (nil for a grey photo) and whether it is progressive.
struct PhotoCoding: CustomTestStringConvertible, Sendable {
  var subsampling: Subsampling?
  var progressive: Bool
  var testDescription: String {
    let kind = subsampling.map { $0 == .half ? "4:2:0" : "4:4:4" } ?? "grey"
    return progressive ? "progressive \(kind)" : "baseline \(kind)"
  }
}

@Suite("JPEG transplant of every coding: progressive, grey, optimized tables")
struct JPEGTransplantCodingTests {
  static let codings = [
    PhotoCoding(subsampling: .half, progressive: true), PhotoCoding(subsampling: Subsampling.none, progressive: true),
    PhotoCoding(subsampling: nil, progressive: true), PhotoCoding(subsampling: nil, progressive: false),
  ]

  /// A 640 x 480 photo and a 16 x 16 stamp centred at (300, 200). The stamp covers [292, 308) x [192, 208);
  /// bicubic reaches one pixel further.
  static let touched = GridRect(left: 291, top: 191, width: 18, height: 18)

  static func plan(on base: String, fixtures: Fixtures) throws -> RenderPlan {
    let red = try fixtures.solid("red.png", width: 16, height: 16, pixel: [230, 20, 20, 255])
    let placement = PlacedStamp(id: "r", center: StampPoint(300, 200), size: StampSize(16, 16), scale: 1, rotation: 0)
    return RenderPlan(base: base, stamp: red, placement: placement)
  }

  static func size(_ path: String) throws -> Double {
    Double(try Data(contentsOf: URL(fileURLWithPath: path)).count)
  }

  /// The transplant takes the photo, the output keeps its coding, every block away from the stamp keeps the
  /// source's coefficients, and the file stays within 2 % of the source's size.
  @Test(arguments: codings)
  func aSmallStampKeepsTheCodingTheBlocksAndTheSize(_ c: PhotoCoding) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base =
      try c.subsampling.map { sampling in
        try fixtures.jpeg("base.jpg", width: 640, height: 480, subsampling: sampling, progressive: c.progressive) {
          Fixtures.texture($0, $1)
        }
      }
      ?? fixtures.grayJPEG("base.jpg", width: 640, height: 480, progressive: c.progressive) {
        Fixtures.texture($0, $1)[0]
      }
    let output = fixtures.path("out.jpg")
    #expect(
      try JPEGTransplant.transplant(try Self.plan(on: base, fixtures: fixtures), to: output, with: Renderer())
        == (c.progressive ? .transplant : .spliced))
    let codec = try #require(JPEGCodec())
    let source = try #require(try codec.open(base))
    let written = try #require(try codec.open(output))
    codec.close()
    #expect(written.progressive == c.progressive)
    #expect(written.sampling == source.sampling && written.colourSpace == source.colourSpace)
    for component in source.sampling.indices {
      let block = component > 0 && c.subsampling == .half ? 16 : 8
      let diff = try differingBlocks(base, output, component: component)
      let allowed = JPEGTransplantTests.blocks(meeting: [Self.touched], bw: block, bh: block)
      #expect(!diff.blocks.isEmpty && diff.blocks.isSubset(of: allowed), "component \(component): \(diff.blocks)")
    }
    let ratio = try Self.size(output) / Self.size(base)
    #expect(abs(ratio - 1) < 0.02, "output is \(ratio) x the source")
    // Red (230, 20, 20) on a grey photo is drawn as its luminance, 0.299 R + 0.587 G + 0.114 B = 82.8.
    let pixel = try Pixels(output)[300, 200].map(Int.init)
    let expected = c.subsampling == nil ? [83] : [230, 20, 20]
    #expect(pixel.elementsEqual(expected) { abs($0 - $1) <= 8 }, "\(pixel)")
  }

  /// A baseline photo with Huffman tables fitted to it keeps tables fitted to it: with the standard ones its
  /// output would grow although no block away from the stamp changed.
  @Test(arguments: [Subsampling.half, .none])
  func optimizedHuffmanTablesDoNotGrowThePhoto(_ subsampling: Subsampling) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.jpeg(
      "base.jpg", width: 640, height: 480, subsampling: subsampling, optimizedTables: true
    ) { Fixtures.texture($0, $1) }
    let output = fixtures.path("out.jpg")
    #expect(
      try JPEGTransplant.transplant(try Self.plan(on: base, fixtures: fixtures), to: output, with: Renderer())
        == .transplant)
    let ratio = try Self.size(output) / Self.size(base)
    #expect(ratio < 1.005, "output is \(ratio) x the source")
    let diff = try differingBlocks(base, output, component: 0)
    #expect(diff.blocks.isSubset(of: JPEGTransplantTests.blocks(meeting: [Self.touched], bw: 8, bh: 8)))
  }

  /// libjpeg-turbo leaves a reused compressor the Huffman tables it last optimized: a codec that wrote a
  /// progressive photo (always optimized) must write the next, standard-table photo with the standard tables,
  /// byte for byte as a fresh codec does.
  @Test func aCodecForgetsTheTablesItOptimizedForThePhotoBefore() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let progressive = try fixtures.grayJPEG("p.jpg", width: 64, height: 48, progressive: true) {
      Fixtures.texture($0, $1)[0]
    }
    let plain = try fixtures.grayJPEG("b.jpg", width: 64, height: 48) { Fixtures.texture($0, $1)[1] }
    func write(_ photos: [String], with codec: JPEGCodec) throws -> Data {
      let output = fixtures.path("out.jpg")
      for photo in photos {
        _ = try codec.open(photo)
        try codec.readCoefficients()
        try codec.write(to: output, orientation: 1)
        codec.close()
      }
      return try Data(contentsOf: URL(fileURLWithPath: output))
    }
    let fresh = try write([plain], with: try #require(JPEGCodec()))
    let reused = try write([progressive, plain], with: try #require(JPEGCodec()))
    #expect(fresh == reused, "\(fresh.count) bytes from a fresh codec, \(reused.count) from a reused one")
  }
}
