import StampRender

/// A decoded picture for assertions: samples by pixel, and centroids in continuous coordinates.
public struct Pixels: Sendable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// Samples per pixel.
  public let bands: Int
  /// All samples, row by row.
  public let samples: [UInt8]

  /// Decodes the file at `path`.
  public init(_ path: String) throws {
    let decoded = try DecodedImage(contentsOf: path)
    self.init(width: decoded.width, height: decoded.height, bands: decoded.bands, samples: decoded.samples)
  }

  /// Wraps samples decoded elsewhere.
  public init(width: Int, height: Int, bands: Int, samples: [UInt8]) {
    self.width = width
    self.height = height
    self.bands = bands
    self.samples = samples
  }

  /// The samples of pixel (x, y).
  public subscript(x: Int, y: Int) -> [UInt8] {
    let start = (y * width + x) * bands
    return Array(samples[start..<start + bands])
  }

  /// The centroid, in continuous coordinates (pixel centres at i + 0.5), of the weights `weight(pixel)`.
  public func centroid(_ weight: ([UInt8]) -> Double) -> (x: Double, y: Double, mass: Double) {
    var sx = 0.0
    var sy = 0.0
    var mass = 0.0
    for y in 0..<height {
      for x in 0..<width {
        let w = weight(self[x, y])
        sx += w * (Double(x) + 0.5)
        sy += w * (Double(y) + 0.5)
        mass += w
      }
    }
    return (sx / mass, sy / mass, mass)
  }
}
