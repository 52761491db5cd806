import Foundation
import StampTestFolders
import StampTestSupport
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

extension TestFolder {
  /// Runs stampcam with `arguments` and the shell's `redirections` applied to it (`2>&-`, `>/dev/full`, `<&-`):
  /// what is not redirected is captured as `run` captures it.
  func run(_ arguments: [String], redirections: String) throws -> CommandResult {
    try run(["-c", "exec \"$0\" \"$@\" \(redirections)", Self.executable.path] + arguments, program: "/bin/sh")
  }

  /// Runs stampcam with `arguments` after the shell commands `setup` (`umask 000`), in the shell that then becomes it.
  func run(_ arguments: [String], after setup: String) throws -> CommandResult {
    try run(["-c", "\(setup); exec \"$0\" \"$@\"", Self.executable.path] + arguments, program: "/bin/sh")
  }

  /// Runs stampcam with its stdout a pipe whose reading end is already closed, so that every write to it fails
  /// with EPIPE; stderr is captured.
  func runIntoClosedPipe(_ arguments: [String]) throws -> CommandResult {
    let pipe = Pipe()
    try pipe.fileHandleForReading.close()
    return try run(arguments, program: Self.executable.path, stdout: pipe)
  }

  /// Runs stampcam with its stdout a non-blocking pipe that nobody reads for `seconds`, so that writes past the
  /// pipe's 64 KiB fail with EAGAIN until the reading starts; then reads it all.
  func runIntoNonBlockingPipe(_ arguments: [String], readingAfter seconds: Double) throws -> CommandResult {
    let pipe = Pipe()
    let fd = pipe.fileHandleForWriting.fileDescriptor
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    return try run(arguments, program: Self.executable.path, stdout: pipe, readingAfter: seconds)
  }

  /// Runs `script` with `/bin/sh -c` in this folder, `$STAMPCAM` naming the built executable (for real pipes into
  /// it); `environment`, when given, is the whole environment instead of this process's.
  func shell(_ script: String, environment: [String: String]? = nil) throws -> CommandResult {
    let inherited = ProcessInfo.processInfo.environment.merging(["STAMPCAM": Self.executable.path]) { $1 }
    return try run(["-c", script], program: "/bin/sh", environment: environment ?? inherited)
  }

  private func run(
    _ arguments: [String], program: String, stdout: Pipe? = nil, readingAfter seconds: Double? = nil,
    environment: [String: String]? = nil
  ) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.currentDirectoryURL = url
    if let environment { process.environment = environment }
    let out = stdout ?? Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    if let seconds { Thread.sleep(forTimeInterval: seconds) }
    let output = stdout == nil || seconds != nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
    let error = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(
      status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
      stderr: String(decoding: error, as: UTF8.self))
  }
}
