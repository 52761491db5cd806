import CVips
import CVipsGlue
import Foundation
import StampFiles
import StampSystem

/// Writes images atomically: a temporary file in the target folder, flushed, then renamed over the target.
enum ImageWriter {
  /// How a JPEG is written when it replaces a JPEG photo that could not be edited in place: like that photo.
  struct JPEGStyle: Equatable, Sendable {
    /// Chroma at half resolution both ways (libvips writes 4:2:0 or 4:4:4, nothing between).
    var subsampled: Bool
    var progressive: Bool

    init(_ facts: JPEGFacts) {
      subsampled = facts.isSubsampled
      progressive = facts.progressive
    }
  }

  /// Writes `image` to a temporary file for `target`, through its descriptor, and returns it staged (in `context`'s
  /// temporary files; the encoding stopped by its control). A JPEG is written in `style` when given, else with
  /// libvips' defaults (4:4:4 from quality 90 up, 4:2:0 below, baseline).
  static func stage(
    _ image: Image, to target: OutputTarget, format: OutputFormat, quality: Int, style: JPEGStyle? = nil,
    in context: JobContext
  ) throws -> StagedFile {
    try AtomicFile.stage(target, registry: context.temporaries) { fd in
      try write(
        image, to: fd.rawValue, display: target.display, format: format, quality: quality, style: style,
        under: context.control)
    }
  }

  /// Encodes `image` into the open file `fd` (the caller's), stopped by `control`; a failure names `display`, and a
  /// failed write its errno.
  static func write(
    _ image: Image, to fd: Int32, display: String, format: OutputFormat, quality: Int, style: JPEGStyle? = nil,
    under control: JobControl?
  ) throws {
    if let missing = format.missingEncoder { throw RenderError.encoding(path: display, lines: [missing]) }
    let code = format.saverCode
    // This save's own errno: libvips' error buffer is the process's (see vips_save.c).
    var writeErrno: Int32 = 0
    let status = try image.evaluating(under: control) {
      Vips.call {
        if format == .jpeg, let style {
          // VipsForeignSubsample: 1 on (4:2:0), 2 off (4:4:4).
          scv_save_descriptor_jpeg(
            image.pointer, fd, Int32(quality), style.subsampled ? 1 : 2, style.progressive ? 1 : 0, &writeErrno)
        } else {
          scv_save_descriptor(image.pointer, fd, code, Int32(quality), &writeErrno)
        }
      }
    }
    guard status == 0 else {
      // The file could not take the bytes (a full disk): the cause is this save's errno, whatever the buffer
      // holds, which another job's failure may have taken or filled.
      if writeErrno != 0 { throw RenderError.write(path: display, message: Errno.text(writeErrno)) }
      // A broken input also ends here (libvips decodes while it encodes): `RenderError.diagnosed` tells which.
      // The message names the output as the user will know it, never the temporary file.
      throw RenderError.encoding(path: display, lines: Vips.takeErrorLines())
    }
  }
}
