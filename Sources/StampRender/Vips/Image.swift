import CVips
import CVipsGlue
import Foundation
import StampFiles

/// One owned reference to a libvips image, released when the handle goes away.
///
/// libvips images are immutable once built and safe to read from several threads, which is why the handle is
/// `Sendable`.
package final class Image: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<VipsImage>
  /// The file this image came from, for error messages.
  let source: String
  /// How damaged `source` may be (the policy it was opened with), for the check after an evaluation during which a
  /// tile failed (see `evaluating`); nil for an image of no file.
  let failOn: InputPolicy.FailOn?

  /// Takes over a reference the caller owns.
  init(owning pointer: UnsafeMutablePointer<VipsImage>, source: String, failOn: InputPolicy.FailOn? = nil) {
    self.pointer = pointer
    self.source = source
    self.failOn = failOn
  }

  deinit {
    g_object_unref(pointer)
  }

  var width: Int { Int(vips_image_get_width(pointer)) }
  var height: Int { Int(vips_image_get_height(pointer)) }
  var bands: Int { Int(vips_image_get_bands(pointer)) }
  var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }
  var format: VipsBandFormat { vips_image_get_format(pointer) }
  var orientation: Int { Int(scv_orientation(pointer)) }
  /// True for 8-bit sRGB with 3 bands, or 4 with alpha: what stamps are composited onto as they are.
  var isEightBitSRGB: Bool {
    let interpretation = vips_image_get_interpretation(pointer)
    return format == VIPS_FORMAT_UCHAR && (bands == 3 || bands == 4)
      && (interpretation == VIPS_INTERPRETATION_sRGB || interpretation == VIPS_INTERPRETATION_RGB)
  }

  /// True when the pipeline reads its photo top to bottom, once (libvips' "vips-sequential" mark).
  var readsInOrder: Bool { vips_image_is_sequential(pointer) != 0 }

  /// Opens an input lazily, read through its own descriptor, with the loaders and damage `policy` allows.
  /// `jpegShrink` (1, 2, 4 or 8) has libjpeg decode a JPEG that many times smaller each way.
  static func open(_ file: InputFile, sequential: Bool, policy: InputPolicy, jpegShrink: Int = 1) throws -> Image {
    try Vips.start()
    var why = [CChar](repeating: 0, count: 256)
    var refusal = SCV_LOAD_NOT_REFUSED
    let loaded = why.withUnsafeMutableBufferPointer { buffer in
      Vips.call {
        scv_load_descriptor(
          file.descriptor.rawValue, sequential ? 1 : 0, policy.failOn.vips, policy.untrustedLoaders ? 1 : 0,
          Int32(jpegShrink),
          &refusal, buffer.baseAddress, buffer.count)
      }
    }
    guard let pointer = loaded else {
      // A refusal before libvips read the file is told in `why`, this call's own; anything else is in the shared
      // buffer (and `RenderError.diagnosed` tells it alone when it matters).
      guard let reason = RenderError.Refusal(refusal) else {
        throw RenderError.unreadable(path: file.path, message: Vips.takeError())
      }
      throw RenderError.refused(path: file.path, refusal: reason, message: why.nulTerminatedText)
    }
    return Image(owning: pointer, source: file.path, failOn: policy.failOn)
  }

  /// Runs a shim call that produces a new image, wrapping failure in an error naming the source file.
  func derive(
    _ operation: String, _ body: (UnsafeMutablePointer<VipsImage>, inout UnsafeMutablePointer<VipsImage>?) -> Int32
  )
    throws -> Image
  {
    var out: UnsafeMutablePointer<VipsImage>?
    guard Vips.call({ body(pointer, &out) }) == 0, let result = out else {
      throw RenderError.operation(path: source, operation: operation, message: Vips.takeError())
    }
    return Image(owning: result, source: source, failOn: failOn)
  }

  /// The pixels as interleaved 8-bit samples, row by row (decodes the image, stopped by `control`).
  func pixels(under control: JobControl? = nil) throws -> [UInt8] {
    let eight = format == VIPS_FORMAT_UCHAR ? self : try derive("cast") { scv_cast($0, &$1, VIPS_FORMAT_UCHAR) }
    var length = 0
    let written = try eight.evaluating(under: control) {
      Vips.call { vips_image_write_to_memory(eight.pointer, &length) }
    }
    guard let raw = written else {
      throw RenderError.operation(path: source, operation: "decode", message: Vips.takeError())
    }
    defer { g_free(raw) }
    return Array(UnsafeRawBufferPointer(start: raw, count: length).bindMemory(to: UInt8.self))
  }
}

extension Image {
  /// An image made from interleaved 8-bit samples (copied), for fixtures and overlays.
  static func fromPixels(_ samples: [UInt8], width: Int, height: Int, bands: Int) throws -> Image {
    try Vips.start()
    let pointer = samples.withUnsafeBytes { bytes in
      Vips.call { scv_new_from_memory_copy(bytes.baseAddress, bytes.count, Int32(width), Int32(height), Int32(bands)) }
    }
    guard let pointer else {
      throw RenderError.operation(path: "<memory>", operation: "new image", message: Vips.takeError())
    }
    return Image(owning: pointer, source: "<memory>")
  }
}

extension Image {
  /// An image over interleaved 8-bit samples that the caller keeps alive and unchanged while the image (and any
  /// image made from it) is in use: nothing is copied.
  static func over(_ samples: UnsafeRawBufferPointer, width: Int, height: Int, bands: Int) throws -> Image {
    try Vips.start()
    let pointer = Vips.call {
      scv_new_from_memory(samples.baseAddress, samples.count, Int32(width), Int32(height), Int32(bands))
    }
    guard let pointer else {
      throw RenderError.operation(path: "<memory>", operation: "new image", message: Vips.takeError())
    }
    return Image(owning: pointer, source: "<memory>")
  }

  /// Computes this 8-bit image's pixels (interleaved) into `buffer`, which holds at least width x height x bands
  /// bytes, stopped by `control`.
  func write(into buffer: UnsafeMutableRawBufferPointer, under control: JobControl?) throws {
    let status = try evaluating(under: control) {
      Vips.call { scv_write_to_memory(pointer, buffer.baseAddress, buffer.count) }
    }
    guard status == 0 else {
      throw RenderError.operation(path: source, operation: "decode", message: Vips.takeError())
    }
  }
}

extension RenderError.Refusal {
  /// The loader's refusal code as a value; nil when it did not refuse.
  init?(_ code: scv_load_refusal) {
    switch code {
    case SCV_LOAD_CANNOT_REOPEN: self = .cannotReopen
    case SCV_LOAD_UNKNOWN_FORMAT: self = .unknownFormat
    case SCV_LOAD_LOADER_NOT_ALLOWED: self = .loaderNotAllowed
    default: return nil
    }
  }
}
