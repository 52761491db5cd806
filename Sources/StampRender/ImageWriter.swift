import CVips
import CVipsShim
import Foundation

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

  /// Writes `image` to `path`; on any failure nothing is left behind and `path` is untouched. A JPEG is written in
  /// `style` when given, else with libvips' defaults (4:4:4 from quality 90 up, 4:2:0 below, baseline).
  static func write(
    _ image: Image, to path: String, format: OutputFormat, quality: Int, style: JPEGStyle? = nil
  ) throws {
    try AtomicFile.write(to: path) { temporary in
      let status: Int32
      switch format {
      case .jpeg:
        if let style {
          // VipsForeignSubsample: 1 on (4:2:0), 2 off (4:4:4).
          status = scv_save_jpeg_options(
            image.pointer, temporary, Int32(quality), style.subsampled ? 1 : 2, style.progressive ? 1 : 0, 0, 0)
        } else {
          status = scv_save_jpeg(image.pointer, temporary, Int32(quality))
        }
      case .png: status = scv_save_png(image.pointer, temporary)
      case .webp: status = scv_save_webp(image.pointer, temporary, Int32(quality), 0)
      case .tiff: status = scv_save_tiff(image.pointer, temporary)
      }
      guard status == 0 else {
        throw RenderError.operation(path: image.source, operation: "encode to \(path)", message: Vips.takeError())
      }
    }
  }
}
