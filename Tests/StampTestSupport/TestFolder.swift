import Foundation

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

  /// Writes a binary PPM (which libvips reads; no codec of ours makes the inputs) whose pixel (x, y) is
  /// `rgb(x, y)`.
  public func ppm(_ name: String, width: Int, height: Int, rgb: (Int, Int) -> [UInt8]) throws {
    var data = Data("P6\n\(width) \(height)\n255\n".utf8)
    data.reserveCapacity(data.count + width * height * 3)
    for y in 0..<height {
      for x in 0..<width { data.append(contentsOf: rgb(x, y)) }
    }
    try data.write(to: url.appendingPathComponent(name))
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
