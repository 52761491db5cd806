import Foundation
import StampTestSupport
import StampTestFolders
import Testing

/// A scratch folder in which the built `stampcam` executable runs as a user would run it.
typealias CommandRunner = TestFolder

/// What a run printed and how it ended.
struct CommandResult {
  var status: Int32
  var stdout: String
  var stderr: String
}

extension TestFolder {
  /// The executable sits beside the test bundle in the build folder.
  static var executable: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
      .appendingPathComponent("stampcam")
  }

  /// Runs stampcam with `arguments` in this folder; `until` may act on the running process (send it a signal).
  func run(_ arguments: [String], until: ((Process) -> Void)? = nil) throws -> CommandResult {
    let process = Process()
    process.executableURL = Self.executable
    process.arguments = arguments
    process.currentDirectoryURL = url
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    until?(process)
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(
      status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self))
  }
}
