import CJPEGDirect
import Foundation
import StampTestShim
import Testing

/// One baseline coding of a picture: its sampling, its Huffman tables and its restart interval.
struct ScanCase: CustomTestStringConvertible, Sendable {
  var sampling: SamplingCase
  var optimized: Bool
  var restartInterval: Int
  var testDescription: String {
    "\(sampling.name), \(optimized ? "optimized" : "standard") tables, "
      + (restartInterval > 0 ? "restart every \(restartInterval) MCUs" : "no restarts")
  }

  static let all: [ScanCase] = SamplingCase.all.filter { $0.name != "RGB-coded" && $0.name != "4:1:0" }.flatMap {
    sampling in
    [false, true].flatMap { optimized in
      [0, 5].map { ScanCase(sampling: sampling, optimized: optimized, restartInterval: $0) }
    }
  }

  /// Writes a textured `width` x `height` picture in this coding with libjpeg and returns its bytes.
  func bytes(_ fixtures: Fixtures, width: Int, height: Int) throws -> [UInt8] {
    let components = sampling.components
    let pixels = Fixtures.samples(width: width, height: height, bands: components) { x, y in
      Array(Fixtures.texture(x, y).prefix(components))
    }
    let path = fixtures.path("scan.jpg")
    var message = [CChar](repeating: 0, count: 256)
    let status = sjt_fixture_write_coded(
      path, pixels, Int32(width), Int32(height), Int32(components), 0, sampling.h.map(Int32.init),
      sampling.v.map(Int32.init), 90, optimized ? 1 : 0, Int32(restartInterval), &message, message.count)
    try #require(status == 0, "\(message.nulTerminatedText)")
    return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
  }
}

/// libjpeg's reading of a JPEG: each component's DC coefficients and its count of warnings.
struct LibjpegDC {
  var grids: [(wide: Int, high: Int, dc: [Int32])] = []
  var warnings = 0

  /// nil when libjpeg refuses the file outright (an error, not a warning).
  init?(_ bytes: [UInt8], components: Int) {
    for component in 0..<components {
      var dc = [Int32](repeating: 0, count: 1 << 16)
      var (wide, high): (Int32, Int32) = (0, 0)
      var warnings = 0
      var message = [CChar](repeating: 0, count: 256)
      let status = sjt_fixture_dc(
        bytes, bytes.count, Int32(component), &dc, dc.count, &wide, &high, &warnings, &message, message.count)
      guard status == 0 else { return nil }
      grids.append((Int(wide), Int(high), dc))
      self.warnings = warnings
    }
  }
}

/// The scanner's reading of a JPEG, every MCU's start stored.
struct Scan {
  var result = sjs_result()
  var points: [sjs_point]

  init(_ bytes: [UInt8]) {
    points = [sjs_point](repeating: sjs_point(), count: 1 << 14)
    _ = sjs_scan(bytes, bytes.count, 1, &points, points.count, &result)
  }
}

extension Scan {
  /// A copy of the JPEG `bytes` with one bit flipped at an offset in `range` (away from any 0xFF: no marker made or
  /// unmade) that only the scanner calls damaged: damage of one of its two readings stricter than libjpeg-turbo's (an
  /// AC run past coefficient 63, a code not in the table) where libjpeg reads the whole file without a warning. The
  /// first such flip, offsets then bits in order; nil when there is none in `range`.
  static func stricterThanLibjpeg(_ bytes: [UInt8], in range: Range<Int>) -> [UInt8]? {
    for at in range where at > 0 && bytes[at - 1] != 0xFF && bytes[at] != 0xFF {
      for bit in 0..<8 where bytes[at] ^ (1 << bit) != 0xFF {
        var copy = bytes
        copy[at] ^= 1 << bit
        var result = sjs_result()
        guard sjs_scan(copy, copy.count, 1, nil, 0, &result) == Int32(SJS_DAMAGED),
          result.damage == Int32(SJS_DAMAGE_RUN_PAST_END) || result.damage == Int32(SJS_DAMAGE_BAD_CODE),
          let libjpeg = LibjpegDC(copy, components: 1), libjpeg.warnings == 0
        else { continue }
        return copy
      }
    }
    return nil
  }
}

@Suite("The baseline entropy scanner, against libjpeg's own reading of the same files")
struct JPEGScanTests {
  /// 157 x 93: a whole MCU in no layout (8, 16 or 32 pixels wide; 8 or 16 high), so the last column and row of MCUs
  /// hold padding blocks.
  static let (width, height) = (157, 93)

  @Test("MCU count and DC predictors are libjpeg's", arguments: ScanCase.all)
  func predictorsAreLibjpegsDCCoefficients(_ coding: ScanCase) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let bytes = try coding.bytes(fixtures, width: Self.width, height: Self.height)
    let scan = Scan(bytes)
    try #require(scan.result.status == Int32(SJS_OK), "\(String(cString: scan.result.reason))")
    let h = coding.sampling.h, v = coding.sampling.v
    let hmax = h.max() ?? 1, vmax = v.max() ?? 1
    // MCUs of 8 hmax x 8 vmax pixels: 157 / 8 -> 20, / 16 -> 10, / 32 -> 5; 93 / 8 -> 12, / 16 -> 6.
    let expectedWide = (Self.width + 8 * hmax - 1) / (8 * hmax)
    let expectedHigh = (Self.height + 8 * vmax - 1) / (8 * vmax)
    #expect(scan.result.mcus_wide == expectedWide && scan.result.mcus_high == expectedHigh)
    let count = expectedWide * expectedHigh
    #expect(scan.result.mcu_count == count && scan.result.mcus_scanned == count && scan.result.points == count)
    let libjpeg = try #require(LibjpegDC(bytes, components: h.count))
    #expect(libjpeg.warnings == 0)
    // MCU m's predictor of component c is the DC of c's last block in MCU m - 1 (its bottom right one), or 0 at the
    // first MCU of a restart interval.
    var wrong = 0
    for m in 1..<count {
      for c in 0..<h.count {
        let point = scan.points[m]
        let stored = withUnsafeBytes(of: point.dc) { $0.bindMemory(to: Int32.self)[c] }
        let expected: Int32
        if coding.restartInterval > 0 && m % coding.restartInterval == 0 {
          expected = 0
        } else {
          let (mx, my) = ((m - 1) % expectedWide, (m - 1) / expectedWide)
          let grid = libjpeg.grids[c]
          let (bx, by) = (mx * h[c] + h[c] - 1, my * v[c] + v[c] - 1)
          try #require(bx < grid.wide && by < grid.high)
          expected = grid.dc[by * grid.wide + bx]
        }
        wrong += stored == expected ? 0 : 1
      }
    }
    #expect(wrong == 0, "\(wrong) predictors differ from libjpeg's DC coefficients")
  }

  @Test("Each MCU starts after the previous one, and an interval's first MCU right after its restart marker")
  func offsetsFollowTheFile() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let coding = ScanCase(sampling: SamplingCase.all[2], optimized: true, restartInterval: 7)
    let bytes = try coding.bytes(fixtures, width: Self.width, height: Self.height)
    let scan = Scan(bytes)
    try #require(scan.result.status == Int32(SJS_OK))
    let count = Int(scan.result.mcu_count)
    #expect(scan.points[0].bit == UInt64(scan.result.entropy_start) * 8)
    #expect((1..<count).allSatisfy { scan.points[$0].bit > scan.points[$0 - 1].bit })
    // The restart markers, found in the bytes: 0xFF then 0xD0-0xD7 inside the entropy-coded data.
    let data = Int(scan.result.entropy_start)..<Int(scan.result.entropy_end)
    let afterMarkers = data.dropLast().filter { bytes[$0] == 0xFF && (0xD0...0xD7).contains(bytes[$0 + 1]) }.map {
      UInt64($0 + 2) * 8
    }
    // 10 x 6 MCUs of 4:2:0 in intervals of 7: markers before MCUs 7, 14, ..., 56.
    #expect(afterMarkers == stride(from: 7, to: count, by: 7).map { scan.points[$0].bit })
    #expect(afterMarkers.count == 8)
  }

  @Test("A picture libvips wrote scans whole")
  func libvipsPhotoScans() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let path = try fixtures.picture("vips.jpg", width: 301, height: 199, bands: 3) { Fixtures.texture($0, $1) }
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let scan = Scan(bytes)
    #expect(scan.result.status == Int32(SJS_OK))
    // libvips writes 4:4:4 at quality 90 and above: MCUs of 8 x 8, 301 / 8 -> 38, 199 / 8 -> 25.
    #expect(scan.result.mcu_count == 38 * 25)
  }

  /// Damaged copies: each of `count` single-bit flips in the entropy-coded data, truncations, and a restart marker
  /// put where none belongs.
  static func damaged(_ bytes: [UInt8], start: Int, end: Int) -> [(String, [UInt8])] {
    var copies: [(String, [UInt8])] = []
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(truncatingIfNeeded: state >> 33)
    }
    for _ in 0..<60 {
      let at = start + next() % (end - start)
      var copy = bytes
      copy[at] ^= UInt8(1 << (next() % 8))
      copies.append(("bit flipped at byte \(at)", copy))
    }
    for cut in [start + 1, (start + end) / 2, end - 1, end, bytes.count - 1] {
      copies.append(("cut at \(cut)", Array(bytes.prefix(cut))))
    }
    // The first restart marker given the next one's number (RST0 -> RST1): libjpeg must resynchronise.
    if let at = (start..<end - 1).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD0 }) {
      copies.append(("restart marker renumbered at \(at)", bytes.replacing(at: at + 1, with: 0xD1)))
    }
    for _ in 0..<10 {
      var at = start + 1 + next() % (end - start - 1)
      while bytes[at - 1] == 0xFF { at += 1 }
      copies.append(("marker put at \(at)", Array(bytes[..<at]) + [0xFF, 0xD3] + Array(bytes[at...])))
    }
    return copies
  }

  @Test(
    "Damage is reported when libjpeg warns, and only then",
    arguments: ScanCase.all.filter { ["4:2:0", "4:2:2", "grey"].contains($0.sampling.name) })
  func damageMatchesLibjpegsWarnings(_ coding: ScanCase) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let bytes = try coding.bytes(fixtures, width: Self.width, height: Self.height)
    let whole = Scan(bytes)
    try #require(whole.result.status == Int32(SJS_OK))
    var disagreements: [String] = []
    var stricter = 0
    for (what, copy) in Self.damaged(
      bytes, start: Int(whole.result.entropy_start), end: Int(whole.result.entropy_end))
    {
      let scan = Scan(copy)
      let libjpeg = LibjpegDC(copy, components: coding.sampling.h.count)
      let warned = libjpeg.map { $0.warnings > 0 } ?? true
      let damaged = scan.result.status == Int32(SJS_DAMAGED)
      if scan.result.status == Int32(SJS_NOT_HANDLED) {
        disagreements.append("\(what): not handled (\(String(cString: scan.result.reason)))")
      } else if damaged != warned {
        // Two readings of libjpeg-turbo's that the scanner does not share, both silent there: an AC run past
        // coefficient 63 (its zigzag table has guard entries), and a code not in the table met by its fast Huffman
        // decoder (most of the data: it decodes it as symbol 0 and warns only on its slow path, near a marker).
        let kind = scan.result.damage
        if damaged && (kind == Int32(SJS_DAMAGE_RUN_PAST_END) || kind == Int32(SJS_DAMAGE_BAD_CODE)) {
          stricter += 1
        } else {
          disagreements.append(
            "\(what): scanner \(damaged ? "damaged (\(scan.result.damage) in MCU \(scan.result.damage_mcu))" : "clean")"
              + ", libjpeg \(warned ? "warned" : "silent")")
        }
      }
      if damaged {
        #expect(scan.result.damage_mcu >= 0 && scan.result.damage_mcu <= scan.result.mcu_count)
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements)")
    // A flip that decodes to other codes libjpeg does catch, later, as a marker reached early or bytes left over:
    // the copies only the scanner calls damaged are the few whose damage its stricter reading alone can see.
    #expect(stricter <= 6, "\(stricter) copies libjpeg reads silently")
  }

  /// A byte of a clean file changed so that its header says something the scanner does not handle.
  struct HeaderChange: CustomTestStringConvertible, Sendable {
    var name: String
    var change: @Sendable ([UInt8], Int) -> [UInt8]  // the bytes, the offset of the SOF0 marker's code
    var testDescription: String { name }

    static let all = [
      HeaderChange(name: "progressive") { bytes, sof in bytes.replacing(at: sof, with: 0xC2) },
      HeaderChange(name: "arithmetic") { bytes, sof in bytes.replacing(at: sof, with: 0xC9) },
      HeaderChange(name: "lossless") { bytes, sof in bytes.replacing(at: sof, with: 0xC3) },
      HeaderChange(name: "12-bit") { bytes, sof in bytes.replacing(at: sof + 3, with: 12) },
      HeaderChange(name: "no SOI") { bytes, _ in bytes.replacing(at: 1, with: 0xD9) },
      HeaderChange(name: "cut inside the header") { bytes, sof in Array(bytes.prefix(sof + 6)) },
    ]
  }

  @Test("Codings other than baseline Huffman are not handled", arguments: HeaderChange.all)
  func otherCodingsAreNotHandled(_ change: HeaderChange) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let bytes = try ScanCase(sampling: SamplingCase.all[0], optimized: false, restartInterval: 0).bytes(
      fixtures, width: 40, height: 24)
    let sof = try #require((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }) + 1
    let scan = Scan(change.change(bytes, sof))
    #expect(scan.result.status == Int32(SJS_NOT_HANDLED))
  }
}

extension Array where Element == UInt8 {
  fileprivate func replacing(at index: Int, with byte: UInt8) -> [UInt8] {
    var copy = self
    copy[index] = byte
    return copy
  }
}
