import CJPEGDirect
import Foundation
import StampTestShim
import Testing

extension SpliceState {
  /// A state that reads photos larger than `window` bytes through a window of that size (0: every photo whole).
  convenience init(window: Int) throws {
    try self.init()
    sjt_set_window(pointer, window)
  }
}

/// Whether `state` holds the photo at `path` whole once it opens it.
func holdsWhole(_ state: SpliceState, _ path: String) throws -> Bool {
  let fd = open(path, O_RDONLY | O_CLOEXEC)
  try #require(fd >= 0)
  defer { close(fd) }
  var header = sjt_header()
  var message = [CChar](repeating: 0, count: 256)
  try #require(sjt_open(state.pointer, fd, 1 << 30, &header, &message, message.count) == 0)
  defer { sjt_close(state.pointer) }
  return sjt_holds_whole(state.pointer) != 0
}

extension JPEGSpliceTests {
  /// A photo larger than the window is never held whole by the splice: its scan reads it through the window, and its
  /// MCUs are cut and copied from pieces of it read again. The output is the very file the splice of the photo held
  /// whole writes, byte for byte, and the refusals are the same, over every sampling, the three kinds of tables and
  /// every layout (runs cut into several pieces, rows read at a piece's edge).
  @Test(
    "A photo read through a window splices to the bytes of the same photo held whole",
    arguments: SplicePhoto.samplings.flatMap { sampling in
      [SplicePhoto.Tables.standard, .optimized, .own].map {
        SplicePhoto(sampling: sampling, width: 250, height: 173, tables: $0)
      }
    })
  func aPhotoReadThroughAWindowSplicesAsOneHeldWhole(_ photo: SplicePhoto) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let path = try photo.write(fixtures)
    let whole = try SpliceState(window: 0)
    let windowed = try SpliceState(window: Int(SJT_WINDOW_MINIMUM))
    #expect(try holdsWhole(whole, path))
    #expect(try !holdsWhole(windowed, path), "\(photo): a photo of a few KB is larger than the least window")
    for (layout, rects) in SplicePhoto.layouts(wide: photo.mcusWide, high: photo.mcusHigh) {
      for (name, edit) in [spliceEdits[1], spliceEdits[3]] {
        let held = try BothWays(fixtures, whole.pointer, photo: path, rects: rects, edit: edit)
        let read = try BothWays(
          fixtures, windowed.pointer, photo: path, rects: rects, edit: edit, outputs: ("read.jpg", "read-whole.jpg"))
        let label = "\(layout), \(name)"
        #expect(read.outcome.index == held.outcome.index, "\(label): \(read.outcome.spliceText)")
        #expect(read.outcome.spliced == held.outcome.spliced, "\(label): \(read.outcome.spliceText)")
        if held.outcome.index == 0 && held.outcome.spliced == 0 {
          #expect(FileManager.default.contentsEqual(atPath: read.spliced, andPath: held.spliced), "\(label)")
          try read.expectSameAsWholePhoto(photo: path, rects: rects, changed: true, label)
        }
      }
    }
  }
}

extension JPEGSpliceTests {
  /// A photo read through the window is read more than once (its header, its scan, its MCUs cut and copied): one
  /// changed in between (another size, another modification time) fails the splice with a message saying so, at the
  /// scan or at the write, and nothing is spliced from two versions of the file.
  @Test func aPhotoChangedWhileItIsReadFailsTheSplice() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let photo = SplicePhoto(sampling: SplicePhoto.samplings[0], width: 250, height: 173)
    let path = try photo.write(fixtures)
    let original = try Data(contentsOf: URL(fileURLWithPath: path))
    let state = try SpliceState(window: Int(SJT_WINDOW_MINIMUM))
    let rects = [MCURect(1, 1, 2, 2)]
    var message = [CChar](repeating: 0, count: 256)

    func open(_ path: String) throws -> Int32 {
      let fd = Foundation.open(path, O_RDONLY | O_CLOEXEC)
      try #require(fd >= 0)
      defer { close(fd) }
      var header = sjt_header()
      return sjt_open(state.pointer, fd, 1 << 30, &header, &message, message.count)
    }
    func index() -> Int32 {
      sjt_splice_index(state.pointer, rects.flat, Int32(rects.count), &message, message.count)
    }

    // Grown after it was opened: the scan's check fails the index.
    try #require(try open(path) == 0)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data([0]))
    try handle.close()
    #expect(index() == -1)
    #expect(message.nulTerminatedText == "the photo changed while it was read")
    #expect(sjt_photo_changed(state.pointer) == 1)

    // Rewritten in place after its scan, with its size kept: the write fails, the output is not made good.
    try original.write(to: URL(fileURLWithPath: path))
    try #require(try open(path) == 0)
    try #require(index() == 0, "\(message.nulTerminatedText)")
    try #require(sjt_splice_open(state.pointer, 0, &message, message.count) == 0)
    try #require(sjt_splice_encode(state.pointer, &message, message.count) == 0)
    var changed = [UInt8](original)
    changed[changed.count / 2] ^= 0x55
    let writer = Foundation.open(path, O_WRONLY | O_CLOEXEC)
    try #require(writer >= 0)
    _ = changed.withUnsafeBytes { pwrite(writer, $0.baseAddress, $0.count, 0) }
    // A modification time of its own: a rewrite within the clock's tick of the first write keeps the same one.
    var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
    #expect(futimens(writer, &times) == 0)
    close(writer)
    let output = fixtures.path("out.jpg")
    let out = Foundation.open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    try #require(out >= 0)
    defer { close(out) }
    #expect(sjt_splice_write(state.pointer, out, 1, &message, message.count) == -1)
    #expect(message.nulTerminatedText == "the photo changed while it was read")
    #expect(sjt_photo_changed(state.pointer) == 1)

    // Unchanged, the same steps write it.
    try original.write(to: URL(fileURLWithPath: path))
    try #require(try open(path) == 0)
    #expect(sjt_photo_changed(state.pointer) == 0)
    try #require(index() == 0, "\(message.nulTerminatedText)")
    try #require(sjt_splice_open(state.pointer, 0, &message, message.count) == 0)
    try #require(sjt_splice_encode(state.pointer, &message, message.count) == 0)
    #expect(ftruncate(out, 0) == 0)
    #expect(sjt_splice_write(state.pointer, out, 1, &message, message.count) == 0, "\(message.nulTerminatedText)")
    let same = try compareCoefficients(output, path)
    #expect(same.differing == 0 && same.compared > 0 && same.warnings.0 == 0)
  }
}
