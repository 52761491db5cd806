import CVips
import CVipsGlue
import Foundation
import StampFiles

/// Process-wide libvips state: start-up, the error buffer, and the gate that lets a failure be told alone.
enum Vips {
  /// Starts libvips once; later calls return at once.
  static func start() throws {
    if scv_init() != 0 {
      throw RenderError.startup(takeError())
    }
  }

  /// Gives each libvips pipeline started from now on its share of the cores among `jobs` jobs in flight (see
  /// `scv_share_cores`); returns the threads per pipeline.
  @discardableResult
  static func shareCores(among jobs: Int, cores: Int = ProcessInfo.processInfo.activeProcessorCount) throws -> Int {
    let threads = scv_share_cores(Int32(clamping: jobs), Int32(clamping: cores))
    if threads < 0 { throw RenderError.startup(takeError()) }
    return Int(threads)
  }

  /// Lets libvips use the loaders it marks untrusted (`--allow-untrusted-loaders`), or blocks them again.
  static func allowUntrustedLoaders(_ allow: Bool) throws {
    try start()
    scv_allow_untrusted(allow ? 1 : 0)
  }

  /// libvips' accumulated error text, trimmed, and the buffer cleared. The buffer is the process's: when jobs fail at
  /// once it may hold another job's message, so it only hints; `check` gives a file's own.
  static func takeError() -> String {
    takeErrorLines().joined(separator: "; ")
  }

  /// `takeError`'s text as libvips wrote it, line by line (never empty: "unknown libvips error" when it said nothing).
  static func takeErrorLines() -> [String] {
    guard let raw = scv_error_take() else { return ["unknown libvips error"] }
    defer { free(raw) }
    let text = String(cString: raw).trimmingCharacters(in: .whitespacesAndNewlines)
    return text.isEmpty ? ["unknown libvips error"] : text.components(separatedBy: "\n")
  }

  /// Runs one libvips call that can fail inside the error gate's shared side, so that `check` can run with no
  /// other call in flight. Calls never nest: `body` is a single call into C.
  static func call<T>(_ body: () throws -> T) rethrows -> T {
    scv_gate_enter()
    defer { scv_gate_leave() }
    return try body()
  }

  /// What decoding a file alone found wrong with it (see `check`).
  struct Failure: Equatable {
    /// The nickname of the libvips loader that the file's first bytes select ("jpegload"), "" when none does.
    var loader: String
    /// libvips' errors and warnings, one per line.
    var lines: [String]
  }

  /// Decodes the image file at `path` alone, as the renderer reads it, and returns what libvips said when that
  /// fails under `failOn`, nil when every pixel decodes. Only this check's messages: no other libvips call runs
  /// meanwhile. Costs a decode of the file, so it is for diagnosing a failure.
  static func check(_ path: String, failOn: InputPolicy.FailOn = .error) -> Failure? {
    guard (try? start()) != nil else { return nil }
    var loader = [CChar](repeating: 0, count: 64)
    let raw = loader.withUnsafeMutableBufferPointer {
      scv_check_file(path, failOn.vips, $0.baseAddress, $0.count)
    }
    guard let raw else { return nil }
    defer { free(raw) }
    let lines = String(cString: raw).split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespacesAndNewlines)
    }.filter { !$0.isEmpty }
    return Failure(loader: loader.nulTerminatedText, lines: lines)
  }
}
