import CJPEGDirect
import Foundation
import Glibc
import StampCore
import StampFiles
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

extension JPEGSpliceInputTests {
  /// Copies of a photo damaged in its entropy-coded data, each named: cut short at several places, one bit flipped
  /// at several places (away from any 0xFF), a restart marker in the middle, bytes before EOI, EOI missing.
  static func damagedCopies(_ bytes: [UInt8]) throws -> [(String, [UInt8])] {
    let data = try entropyRange(bytes)
    var copies: [(String, [UInt8])] = []
    for k in 1..<8 {
      let at = data.lowerBound + data.count * k / 8
      copies.append(("cut at \(at)", Array(bytes[..<at])))
      let flip = try #require((at..<data.upperBound).first { bytes[$0 - 1] != 0xFF && bytes[$0] != 0xFF })
      for bit in [0, 5] where bytes[flip] ^ (1 << bit) != 0xFF {
        var copy = bytes
        copy[flip] ^= 1 << bit
        copies.append(("bit \(bit) of \(flip) flipped", copy))
      }
    }
    let middle = try #require((data.lowerBound + data.count / 2..<data.upperBound).first { bytes[$0 - 1] != 0xFF })
    copies.append(("RST3 at \(middle)", Array(bytes[..<middle]) + [0xFF, 0xD3] + bytes[middle...]))
    copies.append(
      ("two bytes before EOI", Array(bytes[..<data.upperBound]) + [0x12, 0x34] + bytes[data.upperBound...]))
    copies.append(("no EOI", Array(bytes[..<data.upperBound])))
    return copies
  }

  /// What a render came to: its path (the spliced one counted as the whole-photo edit, whose output it must equal),
  /// or its error.
  enum Outcome: Equatable {
    case rendered(RenderPath)
    case failed(String)
  }

  /// Damage in the data, at every `--fail-on` level: the spliced path fails a job, or renders it, exactly where the
  /// whole-photo edit does, in the same words, and what it renders holds the same coefficients.
  @Test(arguments: InputPolicy.FailOn.allCases)
  func damageFailsOrRendersAsTheWholePhotoEditDoes(_ level: InputPolicy.FailOn) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let good = try fixtures.jpeg("good.jpg", width: 160, height: 240, subsampling: .half) {
      Fixtures.texture($0, $1)
    }
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
    for (what, copy) in try Self.damagedCopies(bytes) {
      let base = fixtures.path("damaged.jpg")
      try Data(copy).write(to: URL(fileURLWithPath: base))
      let plan = try fixtures.redStamps(on: base)
      var outcomes: [Outcome] = []
      for splicing in [true, false] {
        var renderer = Renderer()
        renderer.inputs.failOn = level
        renderer.splicesScans = splicing
        let output = fixtures.path(splicing ? "spliced.jpg" : "whole.jpg")
        do {
          let path = try renderer.render(plan, to: output)
          outcomes.append(.rendered(path == .spliced ? .transplant : path))
        } catch {
          outcomes.append(.failed("\(error)"))
          #expect(!FileManager.default.fileExists(atPath: output), "\(what): a failed job left \(output)")
        }
      }
      #expect(outcomes[0] == outcomes[1], "\(what) at \(level)")
      if case .rendered = outcomes[0], outcomes[0] == outcomes[1] {
        for component in 0..<3 {
          let differ = try differingBlocks(
            fixtures.path("spliced.jpg"), fixtures.path("whole.jpg"), component: component)
          #expect(differ.blocks.isEmpty, "\(what) at \(level): component \(component) differs")
        }
      }
      for name in ["spliced.jpg", "whole.jpg"] { try? FileManager.default.removeItem(atPath: fixtures.path(name)) }
    }
  }
}

extension JPEGSpliceInputTests {
  /// Only the first rectangle's encoding keeps its header (the output's is made from it; each holds the ICC
  /// profile): 24 rectangles of a photo with a 1 MB profile (the largest kept), nothing drawn, make an output with
  /// the profile once and whole, and the photo's coefficients.
  @Test func aLargeProfileIsWrittenOnceFromTheFirstRectangle() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    // 384 x 256 at 4:2:0: 24 x 16 MCUs; a rectangle of one MCU at every fourth MCU of every fourth row.
    let good = try fixtures.jpeg("good.jpg", width: 384, height: 256, subsampling: .half) {
      Fixtures.texture($0, $1)
    }
    let profile = ICCProfileFixture.profile(length: 1 << 20)
    let bytes = ICCProfileFixture.embedding(profile, in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: good))))
    let base = fixtures.path("profiled.jpg")
    try Data(bytes).write(to: URL(fileURLWithPath: base))
    let rects = stride(from: 0, to: 16, by: 4).flatMap { top in
      stride(from: 0, to: 24, by: 4).map { GridRect(left: $0, top: top, width: 1, height: 1) }
    }
    let codec = try #require(JPEGCodec())
    defer { codec.close() }
    _ = try codec.open(base)
    try #require(try codec.indexSplice(rects) == .ready)
    for k in rects.indices {
      try #require(try codec.openSplice(k))
      try #require(try codec.encodeSplice())
    }
    let output = fixtures.path("out.jpg")
    var wrote = false
    try AtomicFile.write(to: output) { wrote = try codec.writeSplice(to: $0.rawValue, named: output, orientation: 1) }
    #expect(wrote)
    let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    #expect(ICCProfileFixture.chunks(of: written) == profile)
    for component in 0..<3 { #expect(try differingBlocks(base, output, component: component).blocks.isEmpty) }
  }
}
