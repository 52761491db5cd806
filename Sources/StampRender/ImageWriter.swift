import CVips
import CVipsShim
import Foundation

/// Writes images atomically: a temporary file in the target folder, flushed, then renamed over the target.
enum ImageWriter {
  /// Writes `image` to `path`; on any failure nothing is left behind and `path` is untouched.
  static func write(_ image: Image, to path: String, format: OutputFormat, quality: Int) throws {
    try AtomicFile.write(to: path) { temporary in
      let status = try image.evaluating { () -> Int32 in
        switch format {
        case .jpeg: return scv_save_jpeg(image.pointer, temporary, Int32(quality))
        case .png: return scv_save_png(image.pointer, temporary)
        case .webp: return scv_save_webp(image.pointer, temporary, Int32(quality), 0)
        case .tiff: return scv_save_tiff(image.pointer, temporary)
        }
      }
      guard status == 0 else {
        throw RenderError.operation(path: image.source, operation: "encode to \(path)", message: Vips.takeError())
      }
    }
  }
}
