import CVips
import CVipsShim
import Foundation

/// Writes images atomically: a temporary file in the target folder, flushed, then renamed over the target.
enum ImageWriter {
  /// Writes `image` to `path`; on any failure nothing is left behind and `path` is untouched.
  static func write(_ image: Image, to path: String, format: OutputFormat, quality: Int) throws {
    try AtomicFile.write(to: path) { temporary in
      let status = Vips.call { () -> Int32 in
        switch format {
        case .jpeg: return scv_save_jpeg(image.pointer, temporary, Int32(quality))
        case .png: return scv_save_png(image.pointer, temporary)
        case .webp: return scv_save_webp(image.pointer, temporary, Int32(quality), 0)
        case .tiff: return scv_save_tiff(image.pointer, temporary)
        }
      }
      guard status == 0 else {
        // A broken input also ends here (libvips decodes while it encodes): `RenderError.diagnosed` tells which.
        // The message names the output as the user will know it, never the temporary file.
        throw RenderError.write(path: path, message: Vips.takeError().replacingOccurrences(of: temporary, with: path))
      }
    }
  }
}
