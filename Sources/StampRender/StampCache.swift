import CVips
import CVipsShim
import Foundation
import StampCore

/// A stamp decoded once, in sRGB with alpha, premultiplied (8-bit), held in memory.
final class PreparedStamp: Sendable {
  let image: Image
  let pixelSize: Size

  init(image: Image) {
    self.image = image
    pixelSize = Size(Double(image.width), Double(image.height))
  }
}

/// Decodes each stamp file once per process and hands the same pixels to every job.
///
/// Concurrent requests for one path decode it once: the first caller decodes while the others wait on the lock.
public final class StampCache: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [String: Result<PreparedStamp, RenderError>] = [:]
  private let maxPixels: Int
  /// Transformed stamps kept for reuse across jobs.
  let transforms = TransformCache()

  /// Creates an empty cache; stamps over `maxPixels` pixels are refused.
  public init(maxPixels: Int = 100_000_000) {
    self.maxPixels = maxPixels
  }

  /// The number of distinct stamp files decoded so far.
  public var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return entries.count
  }

  /// The stamp's pixel size, from the cached decode.
  public func pixelSize(of path: String) throws -> Size {
    try stamp(path).pixelSize
  }

  func stamp(_ path: String) throws -> PreparedStamp {
    lock.lock()
    defer { lock.unlock() }
    if let entry = entries[path] {
      return try entry.get()
    }
    let result = Result { try Self.prepare(path, maxPixels: maxPixels) }.mapError {
      $0 as? RenderError ?? .unreadable(path: path, message: "\($0)")
    }
    entries[path] = result
    return try result.get()
  }

  private static func prepare(_ path: String, maxPixels: Int) throws -> PreparedStamp {
    let file = try Image.open(path, sequential: false)
    guard file.width * file.height <= maxPixels else {
      throw RenderError.tooLarge(path: path, width: file.width, height: file.height, limit: maxPixels)
    }
    let upright = file.orientation == 1 ? file : try file.derive("autorotate") { scv_autorot($0, &$1) }
    let srgb = try upright.derive("colour conversion") { scv_to_srgb($0, &$1) }
    let alpha = try srgb.derive("alpha") { scv_ensure_alpha($0, &$1) }
    let float = try alpha.derive("premultiply") { scv_premultiply($0, &$1) }
    // Premultiplied 8-bit: resampling uchar is several times cheaper than float, and the rounding of a
    // premultiplied value moves the blended result by at most half a level.
    let premultiplied = try float.derive("cast") { scv_cast($0, &$1, VIPS_FORMAT_UCHAR) }
    return PreparedStamp(image: try premultiplied.derive("decode") { scv_copy_memory($0, &$1) })
  }
}
