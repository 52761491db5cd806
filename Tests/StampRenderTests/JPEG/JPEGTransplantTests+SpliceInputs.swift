import CJPEGDirect
import Foundation
import StampCore
import StampTestSupport
import Testing

@testable import StampRender

/// Photos coded in ways a baseline encoder rarely writes, spliced and edited whole: the two outputs must hold the
/// same coefficients, block for block, wherever libjpeg reads the photo without a warning.
@Suite("Spliced scans of unusual codings: the same coefficients as the whole-photo edit")
struct JPEGSpliceInputTests {
  /// The offsets of the entropy-coded data of a JPEG with one scan: from the end of its SOS segment to its EOI.
  static func entropyRange(_ bytes: [UInt8]) throws -> Range<Int> {
    let sos = try #require(bytes.indices.dropLast().last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
    let start = sos + 2 + (Int(bytes[sos + 2]) << 8 | Int(bytes[sos + 3]))
    return start..<(bytes.count - 2)
  }

  /// A copy of the JPEG `bytes` with a fill byte before the stuffed zero of every data byte 0xFF in the last half of
  /// its entropy-coded data (0xFF 0x00 made 0xFF 0xFF 0x00), and the count of them.
  static func fillBytes(_ bytes: [UInt8]) throws -> (bytes: [UInt8], fills: Int) {
    let data = try entropyRange(bytes)
    var filled: [UInt8] = Array(bytes[..<(data.lowerBound + data.count / 2)])
    var at = filled.count
    var fills = 0
    while at < data.upperBound {
      if bytes[at] == 0xFF && bytes[at + 1] == 0x00 {
        filled += [0xFF, 0xFF, 0x00]
        fills += 1
        at += 2
      } else {
        filled.append(bytes[at])
        at += 1
      }
    }
    return (filled + bytes[data.upperBound...], fills)
  }

  /// `plan` rendered with the default renderer and with the splice turned off; the two outputs' differing blocks,
  /// component by component.
  static func bothWays(_ plan: RenderPlan, _ fixtures: Fixtures) throws -> (path: RenderPath, differ: [Int]) {
    let spliced = fixtures.path("spliced.jpg")
    let whole = fixtures.path("whole.jpg")
    let path = try Renderer().render(plan, to: spliced)
    var renderer = Renderer()
    renderer.splicesScans = false
    #expect(try renderer.render(plan, to: whole) == .transplant)
    return (path, try (0..<3).map { try differingBlocks(spliced, whole, component: $0).blocks.count })
  }

  /// A data byte 0xFF coded as 0xFF 0xFF 0x00 (a fill byte before its stuffed zero) is one 0xFF to libjpeg's slow
  /// Huffman decoder, but libjpeg-turbo's fast decoder takes 0xFF 0xFF for a marker, decodes zeros after it, and
  /// leaves in the MCU's blocks coefficients of those zeros that the slow decoder, run again on the MCU, does not
  /// overwrite; no warning either way. What the photo holds there is what libjpeg reads: the splice, which would copy
  /// the bits as they are coded, leaves such a photo to the whole-photo edit, and the outputs agree.
  @Test func fillBytesInsideTheDataAreReadAsLibjpegReadsThem() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let good = try fixtures.jpeg("good.jpg", width: 160, height: 240, subsampling: .half) {
      Fixtures.texture($0, $1)
    }
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
    let (filled, fills) = try Self.fillBytes(bytes)
    try #require(fills > 10)
    let base = fixtures.path("filled.jpg")
    try Data(filled).write(to: URL(fileURLWithPath: base))
    try readStrictly(base)

    let (path, differ) = try Self.bothWays(fixtures.redStamps(on: base), fixtures)
    #expect(path == .transplant)
    #expect(differ == [0, 0, 0])
  }

  /// The scanner stops at the first fill byte inside the data, as at a marker, and calls it damage of its own kind,
  /// in one thread or two (the second guessing its way from anywhere in the data, before the fill bytes or among
  /// them): libjpeg reads such a photo, for the splice and for the check of its data alike.
  @Test func fillBytesInsideTheDataAreDamageToTheScanner() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let good = try fixtures.jpeg("good.jpg", width: 160, height: 240, subsampling: .half) {
      Fixtures.texture($0, $1)
    }
    let (filled, fills) = try Self.fillBytes([UInt8](try Data(contentsOf: URL(fileURLWithPath: good))))
    try #require(fills > 10)
    let scan = Scan(filled)
    #expect(scan.result.status == Int32(SJS_DAMAGED))
    #expect(scan.result.damage == Int32(SJS_DAMAGE_FILL_IN_DATA))
    let data = try Self.entropyRange(filled)
    let first = try #require(data.first { filled[$0] == 0xFF && filled[$0 + 1] == 0xFF })
    #expect(scan.result.damage_offset <= first)

    let wide = scan.result.mcus_wide
    let rows = [UInt8](repeating: 1, count: scan.result.mcus_high)
    let one = JPEGScanTests.Marked(filled, rows: rows, wide: wide, split: Int.max)
    #expect(one.status == Int32(SJS_DAMAGED) && one.damage == Int32(SJS_DAMAGE_FILL_IN_DATA))
    for split in [data.lowerBound + data.count / 4, first - 1, first, first + 1, first + 2, data.upperBound - 30] {
      #expect(JPEGScanTests.Marked(filled, rows: rows, wide: wide, split: split) == one, "from byte \(split)")
    }
  }
}
