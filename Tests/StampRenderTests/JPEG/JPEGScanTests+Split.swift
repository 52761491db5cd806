import CJPEGDirect
import Foundation
import StampTestShim
import Testing

extension JPEGScanTests {
  /// A scan of marked rows, in one thread or with a second one from byte `split` on.
  struct Marked: Equatable {
    var status, damage: Int32
    var points, scanned, damageMCU, entropyEnd: Int
    var endsAtEOI: Int32
    var end: UInt64
    var endDC: [Int32]
    var starts: [UInt64]
    var predictors: [Int32]

    init(_ bytes: [UInt8], rows: [UInt8], wide: Int, split: Int) {
      var result = sjs_result()
      var stored = [sjs_point](repeating: sjs_point(), count: rows.count * (wide + 1))
      let status = sjs_scan_marked(bytes, bytes.count, rows, rows.count, &stored, stored.count, split, &result)
      self.init(status, result, stored)
    }

    /// The scan of the file at `path`, of `size` bytes (its real size, or what it had when it was opened), its first
    /// `head` bytes given in memory and the rest read through a window of `window` bytes; `damageOffset` is set to the
    /// file offset the scan reports with damage.
    init(
      file path: String, head: [UInt8], size: Int, window: Int, rows: [UInt8], wide: Int, split: Int,
      damageOffset: inout Int
    ) throws {
      let fd = open(path, O_RDONLY | O_CLOEXEC)
      try #require(fd >= 0, "\(path): \(String(cString: strerror(errno)))")
      defer { close(fd) }
      var result = sjs_result()
      var stored = [sjs_point](repeating: sjs_point(), count: rows.count * (wide + 1))
      let status = sjs_scan_file(
        head, head.count, fd, size, window, rows, rows.count, &stored, stored.count, split, &result)
      damageOffset = Int(result.damage_offset)
      self.init(status, result, stored)
    }

    init(_ status: Int32, _ result: sjs_result, _ stored: [sjs_point]) {
      self.status = status
      damage = result.damage
      entropyEnd = Int(result.entropy_end)
      endsAtEOI = result.ends_at_eoi
      points = result.points
      scanned = result.mcus_scanned
      damageMCU = result.damage_mcu
      end = result.end_bit
      endDC = [result.end_dc.0, result.end_dc.1, result.end_dc.2, result.end_dc.3]
      starts = stored.map(\.bit)
      predictors = stored.flatMap { [$0.dc.0, $0.dc.1, $0.dc.2, $0.dc.3] }
    }
  }

  /// A 301 x 203 picture in a coding, scanned whole: its bytes, where its entropy-coded data starts and ends, its MCUs.
  struct Scanned {
    let bytes: [UInt8]
    let start, end, wide, high: Int

    init(_ coding: ScanCase, _ fixtures: Fixtures) throws {
      bytes = try coding.bytes(fixtures, width: 301, height: 203)
      let whole = Scan(bytes)
      try #require(whole.result.status == Int32(SJS_OK))
      (start, end) = (Int(whole.result.entropy_start), Int(whole.result.entropy_end))
      (wide, high) = (whole.result.mcus_wide, whole.result.mcus_high)
    }
  }

  /// The second thread guesses its state at a byte in the middle of the data and the first takes its results from
  /// the first MCU where both start at the same bit. Wherever it starts (on a byte of a stuffed 0xFF 0x00 too), the
  /// points, predictors and end are the one thread's, bit for bit; damage anywhere is reported as one thread
  /// reports it.
  @Test("Two threads scan as one does", arguments: ScanCase.all.filter { $0.restartInterval == 0 })
  func twoThreadsScanAsOne(_ coding: ScanCase) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let picture = try Scanned(coding, fixtures)
    let (bytes, start, end, wide) = (picture.bytes, picture.start, picture.end, picture.wide)
    // Every other row marked, the last included.
    let rows = (0..<picture.high).map { UInt8($0 % 2 == 0 || $0 == picture.high - 1 ? 1 : 0) }
    let one = Marked(bytes, rows: rows, wide: wide, split: Int.max)
    #expect(one.status == Int32(SJS_OK) && one.points == rows.filter { $0 == 1 }.count * (wide + 1))
    var splits = stride(from: start + 1, to: end, by: max(1, (end - start) / 23)).map { $0 }
    splits += (start..<end - 1).filter { bytes[$0] == 0xFF }.prefix(3).flatMap { [$0, $0 + 1] }
    for split in splits {
      #expect(Marked(bytes, rows: rows, wide: wide, split: split) == one, "second thread from byte \(split)")
    }
    // Damage before and after the split: the same report as one thread's.
    for (what, copy) in Self.damaged(bytes, start: start, end: end).prefix(25) {
      let alone = Marked(copy, rows: rows, wide: wide, split: Int.max)
      for split in [start + (end - start) / 3, (start + end) / 2, end - 40] {
        #expect(Marked(copy, rows: rows, wide: wide, split: split) == alone, "\(what), second thread from \(split)")
      }
    }
  }
}
