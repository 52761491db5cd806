import CVipsGlue
import Foundation
import StampTestShim

@testable import StampRender

/// A fresh temporary folder for one test, with writers for the inputs tests make themselves.
public struct TestFolder: Sendable {
  /// The folder.
  public let url: URL

  /// Creates an empty folder named after `prefix`.
  public init(_ prefix: String = "stampcam-test") throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// The path of `name` in the folder.
  public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Writes text.
  public func write(_ name: String, _ text: String) throws {
    try Data(text.utf8).write(to: url.appendingPathComponent(name))
  }

  /// Writes bytes.
  public func write(_ name: String, bytes: [UInt8]) throws {
    try Data(bytes).write(to: url.appendingPathComponent(name))
  }

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

  /// Files under `name`, recursively, sorted, hidden ones included (temporary files would show), but not the
  /// records `--resume` keeps in `.stampcam/`.
  public func files(_ name: String) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: path(name)) else { return [] }
    var found: [String] = []
    while let next = walker.nextObject() as? String {
      if next == ".stampcam" || next.hasPrefix(".stampcam/") { continue }
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: path(name) + "/" + next, isDirectory: &isFolder), !isFolder.boolValue {
        found.append(next)
      }
    }
    return found.sorted()
  }

  /// Deletes the folder and everything in it.
  public func remove() { try? FileManager.default.removeItem(at: url) }
}
