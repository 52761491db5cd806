import CVips
import CVipsGlue

/// An image file decoded into 8-bit interleaved samples, row by row: for checks of what stampcam wrote.
public struct DecodedImage: Sendable, Equatable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// Samples per pixel.
  public let bands: Int
  /// The samples, `bands` per pixel, rows top to bottom.
  public let samples: [UInt8]

  /// Decodes `path` as stored (no EXIF orientation applied).
  public init(contentsOf path: String) throws {
    let image = try Image.open(path, sequential: false)
    width = image.width
    height = image.height
    bands = image.bands
    samples = try image.pixels()
  }
}
