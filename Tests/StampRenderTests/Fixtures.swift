import CVips
import CVipsShim
import Foundation
import Testing

@testable import StampRender

/// Pictures made by the tests themselves, in a fresh temporary folder per use.
struct Fixtures {
  let folder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("stampcam-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// Writes a solid image (every pixel `pixel`) as PNG, or as JPEG when the name says so.
  @discardableResult
  func solid(_ name: String, width: Int, height: Int, pixel: [UInt8], orientation: Int = 1) throws -> String {
    try picture(name, width: width, height: height, bands: pixel.count, orientation: orientation) { _, _ in pixel }
  }

  /// Writes an image whose pixel at (x, y) is `pixel(x, y)`.
  @discardableResult
  func picture(
    _ name: String, width: Int, height: Int, bands: Int, orientation: Int = 1, pixel: (Int, Int) -> [UInt8]
  ) throws -> String {
    var samples = [UInt8]()
    samples.reserveCapacity(width * height * bands)
    for y in 0..<height {
      for x in 0..<width { samples += pixel(x, y) }
    }
    var image = try Image.fromPixels(samples, width: width, height: height, bands: bands)
    if orientation != 1 {
      image = try image.derive("orient") { scv_set_orientation($0, &$1, Int32(orientation)) }
    }
    let target = path(name)
    let format = try #require(OutputFormat(path: target))
    try ImageWriter.write(image, to: target, format: format, quality: 95)
    return target
  }

  func files() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
  }

  func remove() {
    try? FileManager.default.removeItem(at: folder)
  }
}

/// A decoded picture for assertions.
struct Pixels {
  let width: Int
  let height: Int
  let bands: Int
  let samples: [UInt8]

  init(_ path: String) throws {
    let image = try Image.open(path, sequential: false)
    width = image.width
    height = image.height
    bands = image.bands
    samples = try image.pixels()
  }

  subscript(x: Int, y: Int) -> [UInt8] {
    let start = (y * width + x) * bands
    return Array(samples[start..<start + bands])
  }

  /// The centroid, in continuous coordinates (pixel centres at i + 0.5), of the weights `weight(pixel)`.
  func centroid(_ weight: ([UInt8]) -> Double) -> (x: Double, y: Double, mass: Double) {
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
