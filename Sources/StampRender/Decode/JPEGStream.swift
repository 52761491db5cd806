import CVips
import CVipsGlue
import StampFiles

/// A JPEG photo's pixels for the libvips path, decoded by libjpeg top to bottom in one pass that reads the data to
/// its end (see `scv_jpeg_stream_open`).
///
/// Under `--fail-on error` damage must fail the job even where libjpeg notices it only past the last pixel row
/// ("N extraneous bytes before marker": the decoder lost step and stopped short of the data), which libvips' own
/// loader never reads. Finding it took a second entropy decoding of the file before libvips decoded it (about a
/// third of what decoding costs); this reader finds it in the decoding itself, with libjpeg's defaults, as libvips
/// decodes: the same pixels. A photo read in another order (turned by its EXIF orientation, or under many stamps)
/// is decoded whole first, in order. CMYK, YCCK and photos not 8 bits stay libvips' (with the separate check).
final class JPEGStream: @unchecked Sendable {
  private let stream: OpaquePointer
  let path: String
  /// The job's stop switch, for the reason a stopped read gives; the C reader holds its own reference to the
  /// switch's flag, as the image over it may outlive both this object and the control.
  private let control: JobControl?

  private init(stream: OpaquePointer, path: String, control: JobControl?) {
    self.stream = stream
    self.path = path
    self.control = control
  }

  deinit {
    scv_jpeg_stream_release(stream)
  }

  /// A reader for `file`, whose header libvips read as `header`, stopped by `control`'s flag (passed to the C reader
  /// with it); nil when libvips must decode it itself (not a JPEG, a colour space or precision libjpeg decodes
  /// otherwise, a header libjpeg cannot read).
  static func open(_ file: InputFile, like header: Image, maxBytes: Int, control: JobControl?) -> JPEGStream? {
    let limit = maxBytes < Int.max ? maxBytes + 1 : maxBytes
    guard
      let stream = Vips.call({
        scv_jpeg_stream_open(file.descriptor.rawValue, header.pointer, limit, control?.stopFlag)
      })
    else { return nil }
    return JPEGStream(stream: stream, path: file.path, control: control)
  }

  /// True when the photo is several scans (progressive): libjpeg decodes it whole into coefficient arrays before its
  /// first row.
  var isMultiscan: Bool { scv_jpeg_stream_multiscan(stream) != 0 }

  /// Has such a photo decoded into `codec`'s kept arrays instead of 72 MB (for 12 megapixels) allocated, and faulted
  /// in page by page, for it alone. Before the image is evaluated; `codec` stays this reader's until `end()`.
  func decode(into codec: JPEGCodec) -> Bool {
    scv_jpeg_stream_use_arrays(stream, codec.keptArrays) != 0
  }

  /// Ends the decode: libjpeg's memory and the file are let go (waiting for a read in flight), so that arrays lent
  /// with `decode(into:)` are free again. Later reads fail.
  func end() {
    scv_jpeg_stream_end(stream)
  }

  /// The photo's pixels, with `header`'s metadata: decoded once, in order, when the image is evaluated.
  func image(like header: Image) throws -> Image {
    try header.derive("decode") { scv_jpeg_stream_image(stream, $0, &$1) }
  }

  /// Runs `body`, which evaluates an image made by this reader, and throws what stopped the reader, if anything:
  /// instead of `body`'s own error, or after `body` succeeded (then `discard` lets go of what it made). libvips
  /// 8.14 does not always fail an evaluation whose rows failed: its tile cache (under the in-order read) blacks out a
  /// tile whose computation failed and hands it, without the error, to the threads waiting for it (seen under load:
  /// a damaged photo written whole).
  func telling<T>(_ body: () throws -> T, discard: (T) -> Void = { _ in }) throws -> T {
    let result: T
    do {
      result = try body()
    } catch {
      throw failure ?? error
    }
    if let failure {
      discard(result)
      throw failure
    }
    return result
  }

  /// What stopped the decoding, as the JPEG path reports it: damage, a stopped job, or the reader's own failure; nil
  /// when nothing did.
  var failure: RenderError? {
    var text = [CChar](repeating: 0, count: 256)
    let kind = text.withUnsafeMutableBufferPointer { scv_jpeg_stream_failure(stream, $0.baseAddress, $0.count) }
    let message = text.nulTerminatedText
    switch kind {
    case 0: return nil
    case 1, 2: return .damaged(path: path, message: message, truncated: kind == 1)
    default:
      if let reason = control?.stopReason { return .stopped(path: path, reason: reason) }
      return .operation(path: path, operation: "decode", message: message)
    }
  }
}

/// A composed picture and, when its photo is decoded by stampcam's JPEG reader, that reader: what stopped the reader
/// (damage, most often) fails the writing of the picture, and is what it is told as.
struct Composition {
  let image: Image
  let reader: JPEGStream?

  /// Runs `body`, which stages `image` for an output; when the reader was stopped (see `JPEGStream.telling`), throws
  /// why instead, and removes what was staged.
  func writing(_ body: (Image) throws -> StagedFile) throws -> StagedFile {
    guard let reader else { return try body(image) }
    return try reader.telling({ try body(image) }, discard: { $0.discard() })
  }
}
