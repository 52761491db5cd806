@testable import StampRender

/// An image file decoded into 8-bit interleaved samples, row by row: for checks of what stampcam wrote.
package struct DecodedImage: Sendable, Equatable {
  /// Width in pixels.
  package let width: Int
  /// Height in pixels.
  package let height: Int
  /// Samples per pixel.
  package let bands: Int
  /// The samples, `bands` per pixel, rows top to bottom.
  package let samples: [UInt8]

  /// Decodes `path` as stored (no EXIF orientation applied).
  package init(contentsOf path: String) throws {
    let image = try Image.open(path, sequential: false)
    width = image.width
    height = image.height
    bands = image.bands
    samples = try image.pixels()
  }
}
