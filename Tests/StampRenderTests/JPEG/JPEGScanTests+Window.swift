import CJPEGDirect
import Foundation
import StampTestShim
import Testing

extension JPEGScanTests {
  /// The splice of a photo larger than its window holds only the photo's header in memory and scans the rest through
  /// the window (sjs_scan_file): a window moves on wherever the data makes it, in the middle of a code, between the
  /// 0xFF and 0x00 of a stuffed byte, before a restart marker. Whatever the window's size and whether a second thread
  /// scans too, the points, predictors, end and damage are those of the scan of the whole file in memory, and the
  /// windows' offsets are the file's.
  @Test("A scan through a window finds what a scan of the file in memory finds", arguments: ScanCase.all)
  func aScanThroughAWindowIsTheScanInMemory(_ coding: ScanCase) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let picture = try Scanned(coding, fixtures)
    let (bytes, start, end, wide) = (picture.bytes, picture.start, picture.end, picture.wide)
    let rows = (0..<picture.high).map { UInt8($0 % 3 == 1 || $0 == picture.high - 1 ? 1 : 0) }
    let head = Array(bytes[..<start])
    let path = fixtures.path("window.jpg")
    // The smallest window, sizes that fall on no pattern of the data, and one of half the file.
    let windows = [Int(SJS_WINDOW_MINIMUM), 1031, 1500, 4099, bytes.count / 2]
    let splits = coding.restartInterval > 0 ? [Int.max] : [Int.max, (start + end) / 2]

    func expectSame(_ copy: [UInt8], _ what: String) throws {
      try Data(copy).write(to: URL(fileURLWithPath: path))
      for split in splits {
        let memory = Marked(copy, rows: rows, wide: wide, split: split)
        for window in windows {
          var offset = 0
          let read = try Marked(
            file: path, head: head, size: copy.count, window: window, rows: rows, wide: wide, split: split,
            damageOffset: &offset)
          #expect(read == memory, "\(what): a window of \(window) bytes, second thread from \(split)")
          // Damage is reported at file offsets: where one thread had read to, as in memory.
          if split == Int.max && read.status == Int32(SJS_DAMAGED) {
            #expect(offset == Int(Scan(copy).result.damage_offset), "\(what), window \(window)")
          }
        }
      }
    }
    try expectSame(bytes, "the photo")
    #expect(Marked(bytes, rows: rows, wide: wide, split: Int.max).endsAtEOI == 1)
    // Fill bytes (any number of 0xFF before a marker, which libjpeg skips) longer than every window but the largest:
    // the scan reads past them to the EOI or the restart marker after them, finds fill inside the data where a zero
    // follows them, and the data's end where the file ends in them.
    let fill = [UInt8](repeating: 0xFF, count: 5000)
    let middle = try #require((start + (end - start) / 2..<end).first { bytes[$0 - 1] != 0xFF })
    var filled = [
      ("fill bytes before EOI", Array(bytes[..<end]) + fill + bytes[end...]),
      ("fill bytes inside the data", Array(bytes[..<middle]) + fill + [0] + bytes[middle...]),
      ("fill bytes to the file's end", Array(bytes[..<end]) + fill),
    ]
    if let restart = (start..<end - 1).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD0 }) {
      filled.append(("fill bytes before a restart marker", Array(bytes[..<restart]) + fill + bytes[restart...]))
    }
    for (what, copy) in filled {
      let memory = Marked(copy, rows: rows, wide: wide, split: Int.max)
      let clean = what.hasSuffix("EOI") || what.hasSuffix("restart marker")
      #expect((memory.status == Int32(SJS_OK)) == clean, "\(what): \(memory.status), damage \(memory.damage)")
      try expectSame(copy, what)
    }
    for (what, copy) in Self.damaged(bytes, start: start, end: end).prefix(30) where copy.count > start {
      try expectSame(copy, what)
    }
  }

  /// A file cut or grown after it was opened: the scan reads to the size the file had then. A cut one makes the scan
  /// SJS_NOT_HANDLED (a read came short), never damage to report as the file's or points into bytes it never read.
  @Test func aFileCutUnderAWindowedScanIsNotScanned() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let coding = ScanCase(sampling: SamplingCase.all[0], optimized: false, restartInterval: 0)
    let picture = try Scanned(coding, fixtures)
    let (bytes, start) = (picture.bytes, picture.start)
    let rows = [UInt8](repeating: 1, count: picture.high)
    let path = fixtures.path("cut.jpg")
    try Data(bytes.prefix(bytes.count - 700)).write(to: URL(fileURLWithPath: path))
    for split in [Int.max, start + 2000] {
      var result = sjs_result()
      var stored = [sjs_point](repeating: sjs_point(), count: rows.count * (picture.wide + 1))
      let fd = open(path, O_RDONLY | O_CLOEXEC)
      try #require(fd >= 0)
      defer { close(fd) }
      let status = sjs_scan_file(
        Array(bytes[..<start]), start, fd, bytes.count, 1024, rows, rows.count, &stored, stored.count, split, &result)
      #expect(status == Int32(SJS_NOT_HANDLED), "second thread from \(split)")
      #expect(String(cString: result.reason).contains("read to its end"), "\(String(cString: result.reason))")
    }
    // Arguments a window cannot serve: a window below the least, a header longer than the file.
    var result = sjs_result()
    for (head, size, window) in [(start, bytes.count, 1023), (start, start - 1, 4096)] {
      let status = sjs_scan_file(Array(bytes[..<head]), head, 0, size, window, nil, 0, nil, 0, Int.max, &result)
      #expect(status == Int32(SJS_NOT_HANDLED) && String(cString: result.reason) == "bad arguments")
    }
  }
}
