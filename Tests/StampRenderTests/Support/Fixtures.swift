import CVips
import CVipsGlue
import Foundation
import StampCore
import StampTestFolders
import StampTestShim
import StampTestSupport
import Testing

@testable import StampRender

/// Pictures made by the tests themselves, in a fresh temporary folder per use.
struct Fixtures {
  let folder: TestFolder

  init() throws {
    folder = try TestFolder("stampcam-render-tests")
  }

  func path(_ name: String) -> String { folder.path(name) }

  /// Writes a solid image (every pixel `pixel`) as PNG, or as JPEG when the name says so.
  @discardableResult
  func solid(_ name: String, width: Int, height: Int, pixel: [UInt8], orientation: Int = 1) throws -> String {
    try picture(name, width: width, height: height, bands: pixel.count, orientation: orientation) { _, _ in pixel }
  }

  /// Writes a 32 x 32 grey JPEG (quality 90) that carries an sRGB profile and EXIF a shared photo must not leak: a GPS
  /// latitude and the camera's make ("LeakyCam").
  func photoWithPrivateMetadata(_ name: String) throws -> String {
    var image = try Image.fromPixels([UInt8](repeating: 128, count: 32 * 32 * 3), width: 32, height: 32, bands: 3)
    image = try image.derive("icc") { scv_attach_srgb_profile($0, &$1) }
    image = try image.derive("gps") { scv_set_string($0, &$1, "exif-ifd3-GPSLatitude", "51 28 40") }
    image = try image.derive("make") { scv_set_string($0, &$1, "exif-ifd0-Make", "LeakyCam") }
    let target = path(name)
    try ImageWriter.write(image, to: target, format: .jpeg, quality: 90)
    return target
  }

  /// Writes an image whose pixel at (x, y) is `pixel(x, y)`.
  @discardableResult
  func picture(
    _ name: String, width: Int, height: Int, bands: Int, orientation: Int = 1, pixel: (Int, Int) -> [UInt8]
  ) throws -> String {
    var image = try Image.fromPixels(
      Self.samples(width: width, height: height, bands: bands, pixel), width: width, height: height, bands: bands)
    if orientation != 1 {
      image = try image.derive("orient") { scv_set_orientation($0, &$1, Int32(orientation)) }
    }
    let target = path(name)
    let format = try #require(OutputFormat(path: target))
    try ImageWriter.write(image, to: target, format: format, quality: 95)
    return target
  }

  /// Interleaved samples, rows top to bottom, the pixel at (x, y) being `pixel(x, y)` (`bands` samples).
  static func samples(width: Int, height: Int, bands: Int, _ pixel: (Int, Int) -> [UInt8]) -> [UInt8] {
    var samples = [UInt8]()
    samples.reserveCapacity(width * height * bands)
    for y in 0..<height {
      for x in 0..<width { samples += pixel(x, y) }
    }
    return samples
  }

  func files() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
  }

  func remove() { folder.remove() }
}

extension RenderPlan {
  /// A plan drawing one stamp, the image at `stamp`, placed as `placement` says, on `base`.
  init(base: String, stamp: String, placement: PlacedStamp) {
    self.init(base: base, stamps: [.init(image: stamp, placement: placement)])
  }
}
