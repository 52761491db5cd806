import Foundation

/// A fresh temporary folder for one test, with writers for the files tests make themselves (the picture writers are
/// in StampTestSupport, so that tests which need no pixels link no libvips).
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

  /// Writes text to `name`, making its folders, and returns the file's URL.
  @discardableResult
  public func write(_ name: String, _ text: String) throws -> URL {
    let file = url.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: file)
    return file
  }

  /// Writes bytes.
  public func write(_ name: String, bytes: [UInt8]) throws {
    try Data(bytes).write(to: url.appendingPathComponent(name))
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
