import CJPEGDirect
import Foundation
import StampFiles

/// One reusable set of libjpeg objects and buffers (the shim's `sjt_state`), used by one job at a time.
///
/// Every call turns the shim's error code and message into a `RenderError` naming the file being worked on.
///
/// Unchecked `Sendable`: a codec moves between worker threads only through `JPEGCodecPool`, which hands each one to
/// a single job at a time; it is never used from two threads at once.
final class JPEGCodec: @unchecked Sendable {
  /// The shim's state; internal (not private) only so that tests can read its test-only counters.
  let state: OpaquePointer
  /// The file opened last, for error messages.
  private(set) var path = "<none>"
  /// The control whose flag libjpeg checks, kept alive while it is in use.
  private var control: JobControl?
  /// A region's pixels: two strips decoded (the one being drawn and the next, taking turns) and the one drawn.
  let decoded = [PixelBuffer(), PixelBuffer()]
  let drawn = PixelBuffer()

  /// Creates a codec; nil when libjpeg cannot allocate its objects.
  init?() {
    guard let state = sjt_new() else { return nil }
    self.state = state
  }

  deinit {
    sjt_free(state)
  }

  /// The coefficient arrays the codec keeps from photo to photo, to lend to a row reader while the codec is closed
  /// (see `JPEGStream.decode(into:)`); the codec's next open takes them back.
  var keptArrays: UnsafeMutableRawPointer? { sjt_arrays_of(state) }

  /// Reads the file open as `file` (refused when over `maxBytes`, before it is read) and its header (not its
  /// coefficients yet); nil when the file does not start like a JPEG. A file larger than the window
  /// (`readsThroughWindow`) is read only as far as its header: the splice reads the rest through the window, and
  /// every other path reads the whole file first (see `sjt_open`).
  func open(_ file: InputFile, maxBytes: Int = Renderer.defaultMaxFileBytes) throws -> JPEGFacts? {
    self.path = file.path
    var header = sjt_header()
    let status = try check("read JPEG header") {
      sjt_open(state, file.descriptor.rawValue, max(maxBytes, 0), &header, $0, $1)
    }
    if status == 2 { throw RenderError.fileTooLarge(path: file.path, limit: maxBytes) }
    guard status == 0 else { return nil }
    let spaces: [Int32: JPEGFacts.ColourSpace] = [
      Int32(SJT_GRAY): .grayscale, Int32(SJT_YCBCR): .yCbCr, Int32(SJT_RGB): .rgb, Int32(SJT_CMYK): .cmyk,
      Int32(SJT_YCCK): .ycck,
    ]
    let h = [header.h.0, header.h.1, header.h.2, header.h.3]
    let v = [header.v.0, header.v.1, header.v.2, header.v.3]
    return JPEGFacts(
      width: Int(header.width), height: Int(header.height), colourSpace: spaces[header.color_space] ?? .other,
      precision: Int(header.precision), progressive: header.progressive != 0, arithmetic: header.arithmetic != 0,
      sampling: (0..<min(Int(header.components), 4)).map { BlockMap.Sampling(Int(h[$0]), Int(v[$0])) },
      restartInterval: Int(header.restart_interval), quantizationUsable: header.quantization_ok != 0)
  }

  /// The window a codec reads through unless told otherwise (1 MiB).
  static let defaultWindow = Int(SJT_WINDOW_DEFAULT)

  /// The window, in bytes, through which the splice reads a photo larger than it (0: every photo is read whole;
  /// see `sjt_set_window`); from the next `open` on.
  func readsThroughWindow(of bytes: Int) {
    sjt_set_window(state, max(bytes, 0))
  }

  /// Makes libjpeg stop soon once `control` is stopped; nil: never.
  func stop(on control: JobControl?) {
    self.control = control
    sjt_set_stop(state, control?.stopFlag)
  }

  /// Decodes and encodes regions straight between coefficients and pixels (`on`, the default) or through a small
  /// JPEG each; true when the straight way is available (libjpeg's transforms passed their check, see
  /// `sjt_set_direct`).
  @discardableResult
  func codesRegionsDirectly(_ on: Bool) -> Bool {
    sjt_set_direct(state, on ? 1 : 0) != 0
  }

  /// Which of libjpeg's own modules the straight way runs (see `sjt_direct_modules`).
  var libjpegModules: (transforms: Bool, colour: Bool) {
    let modules = sjt_direct_modules(state)
    return (modules & Int32(SJT_DIRECT_DCT_MODULES) != 0, modules & Int32(SJT_DIRECT_COLOUR_MODULES) != 0)
  }

  /// Reads every DCT coefficient of the opened file.
  func readCoefficients() throws {
    try check("read JPEG coefficients") { sjt_read_coefficients(state, $0, $1) }
  }

  /// Reads the opened file's data to its end and checks it, keeping nothing (see `sjt_skim`); closes the file.
  func skim() throws {
    try check("read JPEG data") { sjt_skim(state, $0, $1) }
  }

  /// The RGB pixels of a stored-frame rectangle on the iMCU grid, decoded from its own blocks into `rgb`, which
  /// holds at least width x height x 3 bytes.
  func decode(_ rect: GridRect, into rgb: UnsafeMutableRawBufferPointer) throws {
    try fits(rgb.count, rect, "decode region \(rect)")
    try check("decode region \(rect)") {
      sjt_decode_region(
        state, Int32(rect.left), Int32(rect.top), Int32(rect.width), Int32(rect.height),
        rgb.baseAddress?.assumingMemoryBound(to: UInt8.self), $0, $1)
    }
  }

  /// Encodes `rgb` (the rectangle's new pixels, at least width x height x 3 bytes) with the file's own tables and
  /// sampling and puts the blocks marked in `masks` (one per component, see `BlockMap.changedBlocks`) in place of the
  /// file's.
  func replace(_ rect: GridRect, rgb: UnsafeRawBufferPointer, masks: [[UInt8]]) throws {
    let buffers = masks.map { mask in
      let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(mask.count, 1))
      copy.initialize(from: mask, count: mask.count)
      return copy
    }
    defer { buffers.forEach { $0.deallocate() } }
    var pointers: [UnsafePointer<UInt8>?] = buffers.map { UnsafePointer($0) }
    let lengths = masks.map(\.count)
    try fits(rgb.count, rect, "re-encode region \(rect)")
    try pointers.withUnsafeMutableBufferPointer { list -> Void in
      try check("re-encode region \(rect)") {
        sjt_replace_blocks(
          state, Int32(rect.left), Int32(rect.top), Int32(rect.width), Int32(rect.height),
          rgb.baseAddress?.assumingMemoryBound(to: UInt8.self), list.baseAddress, lengths, Int32(list.count), $0, $1)
      }
    }
  }

  /// Refuses a pixel buffer of `count` bytes too small for `rect` in RGB.
  private func fits(_ count: Int, _ rect: GridRect, _ operation: String) throws {
    let (area, wide) = max(rect.width, 0).multipliedReportingOverflow(by: max(rect.height, 0))
    let (need, deep) = area.multipliedReportingOverflow(by: 3)
    guard wide || deep || count < need else { return }
    throw RenderError.operation(path: path, operation: operation, message: "a pixel buffer of \(count) bytes")
  }

  /// Writes the coefficients to the open file `fd` (still the caller's), named `target` in messages.
  func write(to fd: Int32, named target: String, orientation: Int) throws {
    try check("write \(target)") { sjt_write(state, fd, Int32(orientation), $0, $1) }
  }

  /// The MCUs in each of the opened file's restart intervals, or nil when it has none that can be copied (see
  /// `sjt_restart_index`: among other reasons, Huffman tables that could not encode an edit).
  func indexRestarts() throws -> Int? {
    var interval: Int32 = 0
    let status = try check("index restart intervals") { sjt_restart_index(state, &interval, $0, $1) }
    return status == 0 ? Int(interval) : nil
  }

  /// Reads every restart interval of the indexed file as a whole-photo decode does, keeping nothing (see
  /// `sjt_restart_check`): corrupt data anywhere, copied intervals included, is `RenderError.damaged`.
  func checkRestarts() throws {
    try check("read JPEG data") { sjt_restart_check(state, $0, $1) }
  }

  /// Makes `count` restart intervals from `first` (`height` pixel rows) the coefficients that `decode` and
  /// `replace` work on, in the span's coordinates.
  func openSpan(first: Int, count: Int, height: Int) throws {
    try check("read restart intervals \(first) ..< \(first + count)") {
      sjt_span_open(state, Int32(first), Int32(count), Int32(height), $0, $1)
    }
  }

  /// Encodes the span opened last, with the file's own Huffman tables, and keeps it for `writeSpliced`.
  func encodeSpan(orientation: Int) throws {
    try check("encode restart intervals") { sjt_span_encode(state, Int32(orientation), $0, $1) }
  }

  /// Writes the file: the encoded spans' intervals, and every other interval copied from the source.
  func writeSpliced(to fd: Int32, named target: String) throws {
    try check("write \(target)") { sjt_write_spliced(state, fd, $0, $1) }
  }

  /// Whether the opened file can be spliced (see `sjt_splice_index`).
  enum Splice: Equatable {
    /// Scanned whole, undamaged: the rectangles can be opened.
    case ready
    /// Not a file the splice takes (progressive, restart markers, tables lacking codes, ...), or a DC difference at a
    /// seam its table cannot code: nothing was written, the whole-coefficient edit can follow.
    case notHandled(String)
    /// The scan found the entropy-coded data damaged: libjpeg should read it, to report it in its own words.
    case damaged(String)
  }

  /// Scans the opened file for the spliced path, keeping where the MCUs of `rects` (whole MCUs, inside the photo,
  /// not overlapping, sorted by top then left) start.
  func indexSplice(_ rects: [GridRect]) throws -> Splice {
    let flat = rects.flatMap { [$0.left, $0.top, $0.width, $0.height].map { Int32(clamping: $0) } }
    var reason = ""
    let status = try check("scan JPEG data") { message, length in
      let status = sjt_splice_index(state, flat, Int32(clamping: rects.count), message, length)
      reason = String(cString: message)
      return status
    }
    switch status {
    case 0: return .ready
    case 2: return .damaged(reason)
    default: return .notHandled(reason)
    }
  }

  /// Makes splice rectangle `k` the coefficients that `decode` and `replace` work on, in its own coordinates: false,
  /// with the photo still open as it was, when a DC difference at one of its rows' starts cannot be coded with the
  /// photo's table.
  func openSplice(_ k: Int) throws -> Bool {
    try check("read JPEG data") { sjt_splice_open(state, Int32(clamping: k), $0, $1) } == 0
  }

  /// Encodes the splice rectangle opened last with the photo's own Huffman tables, for `writeSplice`: false when
  /// those tables (fitted to the photo) lack a code the edited blocks need.
  func encodeSplice() throws -> Bool {
    try check("encode JPEG data") { sjt_splice_encode(state, $0, $1) } == 0
  }

  /// Writes the photo spliced to the open file `fd` (still the caller's), named `target` in messages: false, with
  /// nothing written, when a seam's DC difference cannot be coded with the photo's table.
  func writeSplice(to fd: Int32, named target: String, orientation: Int) throws -> Bool {
    try check("write \(target)") { sjt_splice_write(state, fd, Int32(clamping: orientation), $0, $1) } == 0
  }

  /// Lets go of the file and its coefficients; the buffers stay for the next job.
  func close() {
    sjt_close(state)
    for buffer in decoded + [drawn] { buffer.trim() }
  }

  /// Runs one shim call with a message buffer; a negative status becomes an error naming the file.
  @discardableResult
  private func check(_ operation: String, _ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) throws -> Int32 {
    let capacity = 512
    let message = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
    defer { message.deallocate() }
    message.initialize(repeating: 0, count: capacity)
    let status = body(message, capacity)
    guard status >= 0 else {
      // Read again after it was opened (its scan, then its MCUs copied), the file was not the same: whatever was
      // read of it belongs to no one version, and the job fails rather than render either.
      if sjt_photo_changed(state) != 0 {
        throw RenderError.input(
          path: path, problem: "the file changed while it was read (render the job again once it is written)")
      }
      let damage = sjt_damage(state)
      guard damage == 0 else {
        throw RenderError.damaged(path: path, message: String(cString: message), truncated: damage == 1)
      }
      throw RenderError.operation(path: path, operation: operation, message: String(cString: message))
    }
    return status
  }
}
