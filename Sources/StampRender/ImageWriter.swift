import CVips
import CVipsShim
import Foundation

/// Writes images atomically: a temporary file in the target folder, flushed, then renamed over the target.
enum ImageWriter {
  /// Writes `image` to `path`; on any failure nothing is left behind and `path` is untouched.
  static func write(_ image: Image, to path: String, format: OutputFormat, quality: Int) throws {
    try stage(image, to: OutputTarget(path: path), format: format, quality: quality).commit()
  }

  /// Writes `image` to a temporary file for `target`, through its descriptor, and returns it staged.
  static func stage(_ image: Image, to target: OutputTarget, format: OutputFormat, quality: Int) throws -> StagedFile {
    try AtomicFile.stage(target) { fd in
      let code: Int32
      switch format {
      case .jpeg: code = 0
      case .png: code = 1
      case .webp: code = 2
      case .tiff: code = 3
      }
      guard Vips.call({ scv_save_descriptor(image.pointer, fd, code, Int32(quality)) }) == 0 else {
        // A broken input also ends here (libvips decodes while it encodes): `RenderError.diagnosed` tells which.
        // The message names the output as the user will know it, never the temporary file.
        throw RenderError.write(path: target.display, message: Vips.takeError())
      }
    }
  }
}
