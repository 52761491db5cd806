import Foundation
import Testing

/// The README's "Using the solver in an app" example, Examples/app: the README shows the very file, and a package
/// that depends on this one through its path builds it and runs it.
///
/// Building a dependent package takes about a minute the first time on two cores, so the build runs only when
/// `STAMPCAM_APP_EXAMPLE=1` (scripts/app-example sets it, and CI runs that script after the tests). It reuses the
/// scratch folder `.build/app-example`, so a second run takes seconds.
@Suite("the app example: README's code compiles against the library products and prints what was worked out by hand")
struct AppExampleTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()
  static let example = root.appendingPathComponent("Examples/app")
  static let enabled = ProcessInfo.processInfo.environment["STAMPCAM_APP_EXAMPLE"] == "1"

  @Test("README.md shows Examples/app's main.swift word for word")
  func readmeShowsTheExample() throws {
    let code = try String(
      contentsOf: Self.example.appendingPathComponent("Sources/StampApp/main.swift"), encoding: .utf8)
    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(readme.contains("```swift\n" + code + "```\n"))
  }

  @Test("the example builds from a separate package and prints the phases of a pinch of x1.5", .enabled(if: enabled))
  func buildsAndRuns() throws {
    let work = Self.root.appendingPathComponent(".build/app-example")
    let package = work.appendingPathComponent("package")
    let sources = package.appendingPathComponent("Sources/StampApp")
    try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
    // The example's manifest, pointed at this clone, whose folder name is the package's identity.
    let manifest = try String(contentsOf: Self.example.appendingPathComponent("Package.swift"), encoding: .utf8)
      .replacingOccurrences(of: "path: \"../..\"", with: "path: \"\(Self.root.path)\"")
      .replacingOccurrences(
        of: "package: \"stampcam\"", with: "package: \"\(Self.root.lastPathComponent.lowercased())\"")
    try manifest.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    let code = try Data(contentsOf: Self.example.appendingPathComponent("Sources/StampApp/main.swift"))
    try code.write(to: sources.appendingPathComponent("main.swift"))
    let scratch = work.appendingPathComponent("scratch")
    let build = try Self.run(
      "/usr/bin/env", ["swift", "build", "--package-path", package.path, "--scratch-path", scratch.path])
    try #require(build.status == 0, "swift build failed:\n\(build.output)")
    let run = try Self.run(scratch.appendingPathComponent("debug/StampApp").path, [])
    try #require(run.status == 0, "the example failed:\n\(run.output)")
    let lines = run.output.split(separator: "\n").map(String.init)
    try #require(lines.count == 5)
    // Fingers 50 points apart spread to 75: x1.5, begun at the frame that spread them (each finger 12.5 out, past
    // the pinch slop of 10) and ended when they lift.
    #expect(lines[0] == "pinch began on star at t = 0.05: scale 1.5")
    #expect(lines[1] == "pinch ended on star at t = 0.1: scale 1.5")
    #expect(lines[2] == "star: scale 1.5, rotation 0.0")
    // The screen shows the photo at half size: view (250, 200) is photo pixel (500, 400); a pinch keeps the centre.
    #expect(lines[3] == "centre (500.0, 400.0) in the photo, (250.0, 200.0) on the screen")
    #expect(lines[4].hasPrefix(#"{"id": "star", "base": "photo.jpg", "output": "star.jpg", "view": {"width": 500"#))
    #expect(lines[4].contains(#"{"t": 0.05, "id": 2, "phase": "moved", "x": 287.5, "y": 200}"#))
  }

  /// Runs `path` with `arguments`; stdout and stderr together, read to the end before waiting, so neither fills up.
  static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
  }
}
