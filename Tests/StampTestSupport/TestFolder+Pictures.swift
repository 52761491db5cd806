import CVipsGlue
import Foundation
import StampTestFolders
import StampTestShim

@testable import StampRender

/// Writers of the pictures tests make themselves, through libvips.
extension TestFolder {
  /// Writes a lossless RGB picture whose pixel (x, y) is `rgb(x, y)`. It is a PNG (encoded by libvips; no codec
  /// of ours makes the inputs) whatever the name says: stampcam reads inputs by their content, and libvips' PPM
  /// loader, which these fixtures once were, is one of the untrusted loaders refused by default.
  public func ppm(_ name: String, width: Int, height: Int, rgb: (Int, Int) -> [UInt8]) throws {
    var samples: [UInt8] = []
    samples.reserveCapacity(width * height * 3)
    for y in 0..<height {
      for x in 0..<width { samples.append(contentsOf: rgb(x, y)) }
    }
    let image = try Image.fromPixels(samples, width: width, height: height, bands: 3)
    guard scv_save_png(image.pointer, path(name)) == 0 else {
      throw RenderError.write(path: path(name), message: Vips.takeError())
    }
  }

  /// Writes a JPEG of one colour (quality 90, through libvips) and returns its bytes.
  @discardableResult
  public func jpeg(_ name: String, width: Int, height: Int, rgb: [UInt8]) throws -> [UInt8] {
    let samples = [[UInt8]](repeating: rgb, count: width * height).flatMap { $0 }
    let image = try Image.fromPixels(samples, width: width, height: height, bands: 3)
    guard scv_save_jpeg(image.pointer, path(name), 90) == 0 else {
      throw RenderError.write(path: path(name), message: Vips.takeError())
    }
    return [UInt8](try Data(contentsOf: url.appendingPathComponent(name)))
  }

  /// Writes a PPM of one colour.
  public func ppm(_ name: String, width: Int, height: Int, rgb: [UInt8]) throws {
    try ppm(name, width: width, height: height) { _, _ in rgb }
  }
}
