import Foundation
import Testing

/// Runs the built `stampcam` executable as a user would, in a scratch folder of its own.
struct CommandRunner {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  let folder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("stampcam-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  func remove() { try? FileManager.default.removeItem(at: folder) }

  func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// The executable sits beside the test bundle in the build folder.
  static var executable: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
      .appendingPathComponent("stampcam")
  }

  func write(_ name: String, _ text: String) throws {
    try Data(text.utf8).write(to: folder.appendingPathComponent(name))
  }

  func write(_ name: String, bytes: [UInt8]) throws {
    try Data(bytes).write(to: folder.appendingPathComponent(name))
  }

  /// A PPM of one colour (libvips reads it; no codec of ours makes the inputs).
  func ppm(_ name: String, width: Int, height: Int, rgb: [UInt8]) throws {
    var data = Data("P6\n\(width) \(height)\n255\n".utf8)
    data.append(contentsOf: [UInt8](repeating: 0, count: width * height * 3))
    data.withUnsafeMutableBytes { raw in
      let header = raw.count - width * height * 3
      for i in 0..<(width * height) {
        for c in 0..<3 { raw[header + i * 3 + c] = rgb[c] }
      }
    }
    try data.write(to: folder.appendingPathComponent(name))
  }

  /// Files under `name`, recursively, sorted, hidden ones included.
  func files(_ name: String) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: path(name)) else { return [] }
    var found: [String] = []
    while let next = walker.nextObject() as? String {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: path(name) + "/" + next, isDirectory: &isFolder), !isFolder.boolValue {
        found.append(next)
      }
    }
    return found.sorted()
  }

  func run(_ arguments: [String], until: ((Process) -> Void)? = nil) throws -> Result {
    let process = Process()
    process.executableURL = Self.executable
    process.arguments = arguments
    process.currentDirectoryURL = folder
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    until?(process)
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self))
  }
}
