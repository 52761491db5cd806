import CVips
import CVipsShim
import Foundation

/// Writes images atomically: a temporary file in the target folder, flushed, then renamed over the target.
enum ImageWriter {
  /// Writes `image` to `path`; on any failure nothing is left behind and `path` is untouched.
  static func write(_ image: Image, to path: String, format: OutputFormat, quality: Int) throws {
    try atomically(to: path) { temporary in
      let status: Int32
      switch format {
      case .jpeg: status = scv_save_jpeg(image.pointer, temporary, Int32(quality))
      case .png: status = scv_save_png(image.pointer, temporary)
      case .webp: status = scv_save_webp(image.pointer, temporary, Int32(quality), 0)
      case .tiff: status = scv_save_tiff(image.pointer, temporary)
      }
      guard status == 0 else {
        throw RenderError.operation(path: image.source, operation: "encode to \(path)", message: Vips.takeError())
      }
    }
  }

  /// Lets `fill` write a temporary file in `path`'s folder, flushes it to disk and renames it over `path`; on any
  /// failure nothing is left behind and `path` is untouched.
  static func atomically(to path: String, _ fill: (String) throws -> Void) throws {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    let temporary =
      folder + "/." + url.lastPathComponent + ".stampcam-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
    TemporaryFiles.shared.add(temporary)
    defer { TemporaryFiles.shared.remove(temporary) }
    do {
      try fill(temporary)
      try flush(temporary)
      guard rename(temporary, path) == 0 else {
        throw RenderError.write(path: path, message: String(cString: strerror(errno)))
      }
    } catch {
      unlink(temporary)
      throw error
    }
  }

  private static func flush(_ path: String) throws {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw RenderError.write(path: path, message: String(cString: strerror(errno))) }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw RenderError.write(path: path, message: String(cString: strerror(errno))) }
  }
}
