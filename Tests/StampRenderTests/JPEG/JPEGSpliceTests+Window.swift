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

/// One splice of rectangle (1, 1, 2, 2) through the smallest window, step by step, with its last message.
final class StepwiseSplice {
  let state: SpliceState
  let rects = [MCURect(1, 1, 2, 2)]
  var message = [CChar](repeating: 0, count: 256)
  var text: String { message.nulTerminatedText }

  init() throws { state = try SpliceState(window: Int(SJT_WINDOW_MINIMUM)) }

  /// sjt_open of the photo at `path`, through a descriptor closed again at once (the state keeps its own).
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

  /// The rectangle opened and encoded again as it is: the steps between the index and the write.
  func encode() throws {
    try #require(sjt_splice_open(state.pointer, 0, &message, message.count) == 0, "\(text)")
    try #require(sjt_splice_encode(state.pointer, &message, message.count) == 0)
  }

  func write(to fd: Int32) -> Int32 {
    sjt_splice_write(state.pointer, fd, 1, &message, message.count)
  }

  /// The write to a new file at `path`.
  func write(toNew path: String) throws -> Int32 {
    let out = Foundation.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    try #require(out >= 0)
    defer { close(out) }
    return write(to: out)
  }
}

/// Rewrites the file at `path` in place with `original`'s bytes, one of them changed (its size kept), and gives it
/// the access and modification times `times`.
func rewriteInPlace(_ path: String, from original: Data, times: [timespec]) throws {
  var changed = [UInt8](original)
  changed[changed.count / 2] ^= 0x55
  let writer = open(path, O_WRONLY | O_CLOEXEC)
  try #require(writer >= 0)
  defer { close(writer) }
  _ = changed.withUnsafeBytes { pwrite(writer, $0.baseAddress, $0.count, 0) }
  var times = times
  #expect(futimens(writer, &times) == 0)
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
    let splice = try StepwiseSplice()

    // Grown after it was opened: the scan's check fails the index.
    try #require(try splice.open(path) == 0)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data([0]))
    try handle.close()
    #expect(splice.index() == -1)
    #expect(splice.text == "the photo changed while it was read")
    #expect(sjt_photo_changed(splice.state.pointer) == 1)

    // Rewritten in place after its scan, with its size kept: the write fails, the output is not made good.
    try original.write(to: URL(fileURLWithPath: path))
    try #require(try splice.open(path) == 0)
    try #require(splice.index() == 0, "\(splice.text)")
    try splice.encode()
    // A modification time of its own: a rewrite within the clock's tick of the first write keeps the same one.
    try rewriteInPlace(
      path, from: original,
      times: [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)])
    let output = fixtures.path("out.jpg")
    let out = Foundation.open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    try #require(out >= 0)
    defer { close(out) }
    #expect(splice.write(to: out) == -1)
    #expect(splice.text == "the photo changed while it was read")
    #expect(sjt_photo_changed(splice.state.pointer) == 1)

    // Unchanged, the same steps write it.
    try original.write(to: URL(fileURLWithPath: path))
    try #require(try splice.open(path) == 0)
    #expect(sjt_photo_changed(splice.state.pointer) == 0)
    try #require(splice.index() == 0, "\(splice.text)")
    try splice.encode()
    #expect(ftruncate(out, 0) == 0)
    #expect(splice.write(to: out) == 0, "\(splice.text)")
    let same = try compareCoefficients(output, path)
    #expect(same.differing == 0 && same.compared > 0 && same.warnings.0 == 0)
  }
}

extension JPEGSpliceTests {
  /// Fill bytes before the EOI (any number of 0xFF, which libjpeg skips) several windows long: the scan through the
  /// window reads past them to the EOI, and the photo splices to the bytes of the same photo held whole, which libjpeg
  /// reads as the photo outside the rectangle.
  @Test func fillBytesLongerThanTheWindowBeforeEOISpliceAsHeldWhole() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let photo = SplicePhoto(sampling: SplicePhoto.samplings[0], width: 250, height: 173)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try photo.write(fixtures))))
    try #require(bytes.suffix(2) == [0xFF, 0xD9])
    bytes.insert(contentsOf: repeatElement(0xFF, count: 3 * Int(SJT_WINDOW_MINIMUM)), at: bytes.count - 2)
    let path = fixtures.path("filled.jpg")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let whole = try SpliceState(window: 0)
    let windowed = try SpliceState(window: Int(SJT_WINDOW_MINIMUM))
    #expect(try !holdsWhole(windowed, path))
    let rects = [MCURect(1, 1, 2, 2)]
    let held = try BothWays(fixtures, whole.pointer, photo: path, rects: rects, edit: spliceEdits[1].1)
    let read = try BothWays(
      fixtures, windowed.pointer, photo: path, rects: rects, edit: spliceEdits[1].1,
      outputs: ("read.jpg", "read-whole.jpg"))
    #expect(held.outcome.index == 0 && held.outcome.spliced == 0, "\(held.outcome.spliceText)")
    #expect(read.outcome.index == 0 && read.outcome.spliced == 0, "\(read.outcome.spliceText)")
    #expect(FileManager.default.contentsEqual(atPath: read.spliced, andPath: held.spliced))
    try read.expectSameAsWholePhoto(photo: path, rects: rects, changed: true, "fill bytes before EOI")
  }
}

extension JPEGSpliceTests {
  /// A photo whose name is given to another file by a rename while its splice reads it (an editor's save, a sync tool):
  /// the descriptor still reads the bytes it opened, only the old file's link count and change time moved, and the
  /// splice writes that photo's edit, byte for byte the one of the photo left alone. A write in place whose
  /// modification time is set back to the old one still fails it: its change time moved, its link count did not.
  @Test func aPhotoReplacedByARenameWhileItIsReadSplicesTheFileItOpened() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let photo = SplicePhoto(sampling: SplicePhoto.samplings[0], width: 250, height: 173)
    let path = try photo.write(fixtures)
    let original = try Data(contentsOf: URL(fileURLWithPath: path))
    let other = try SplicePhoto(sampling: SplicePhoto.samplings[0], width: 250, height: 173, tables: .optimized)
      .write(fixtures)
    let steps = try StepwiseSplice()

    // The splice's steps to `output`, with `between` done after the scan; the write's status.
    func splice(to output: String, between: () throws -> Void) throws -> Int32 {
      try original.write(to: URL(fileURLWithPath: path))
      try #require(try steps.open(path) == 0 && sjt_holds_whole(steps.state.pointer) == 0)
      try #require(steps.index() == 0)
      try between()
      try steps.encode()
      return try steps.write(toNew: fixtures.path(output))
    }

    #expect(try splice(to: "alone.jpg") {} == 0, "\(steps.text)")
    let renamed = try splice(to: "renamed.jpg") {
      let copy = fixtures.path("copy.jpg")
      try FileManager.default.copyItem(atPath: other, toPath: copy)
      #expect(rename(copy, path) == 0)
    }
    #expect(renamed == 0, "\(steps.text)")
    let alone = fixtures.path("alone.jpg")
    #expect(FileManager.default.contentsEqual(atPath: fixtures.path("renamed.jpg"), andPath: alone))

    let rewritten = try splice(to: "rewritten.jpg") {
      var before = stat()
      #expect(stat(path, &before) == 0)
      try rewriteInPlace(path, from: original, times: [before.st_atim, before.st_mtim])
    }
    #expect(rewritten == -1)
    #expect(steps.text == "the photo changed while it was read")
  }
}

extension JPEGSpliceTests {
  /// A state holds a descriptor of its own of a photo it reads through the window; freed while that photo is still
  /// open (never closed), it closes that descriptor too: no descriptor of the photo's file is left in the process.
  @Test func aStateFreedWithAPhotoOpenClosesItsDescriptor() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let path = try SplicePhoto(sampling: SplicePhoto.samplings[0], width: 250, height: 173).write(fixtures)
    // The descriptors open on the photo's file, by the path each names (unique to this test).
    func descriptorsOfThePhoto() throws -> Int {
      let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
      return try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == target
      }.count
    }
    do {
      let state = try SpliceState(window: Int(SJT_WINDOW_MINIMUM))
      let fd = open(path, O_RDONLY | O_CLOEXEC)
      try #require(fd >= 0)
      var header = sjt_header()
      var message = [CChar](repeating: 0, count: 256)
      try #require(sjt_open(state.pointer, fd, 1 << 30, &header, &message, message.count) == 0)
      close(fd)
      try #require(sjt_holds_whole(state.pointer) == 0)
      let held = try descriptorsOfThePhoto()
      withExtendedLifetime(state) {}
      #expect(held == 1, "the state's own, while the photo is open")
    }
    #expect(try descriptorsOfThePhoto() == 0)
  }
}
