import Foundation
import StampBatch
import StampFiles
import StampSystem
import Synchronization

/// `--report FILE|-`: one JSON line per job as it ends, written at once so a report survives an interruption.
/// Every write is checked, and the close: a report that cannot be written (a full disk, `/dev/full`, a closed
/// pipe) is an error, remembered in `failure`, never silently short. `--events` writes its lines through one too.
final class ReportWriter: Sendable {
  private struct State: ~Copyable {
    /// The report file; nil for `-` (standard output, which is not the report's to close) and once closed.
    var file: FileDescriptor?
    /// Why the report could not be written.
    var failed: String?
  }

  private let path: String
  private let closes: Bool
  /// What the file is, in messages: "report", or "events".
  private let noun: String
  /// Held while writing, so that lines never interleave.
  private let state: Mutex<State>

  /// Opens (truncates) the report; call only once the manifest is known valid and the report is known to be none
  /// of the batch's files (see `OutputClaims`).
  init(path: String, noun: String = "report") throws {
    self.path = path
    self.noun = noun
    if path == "-" || Self.isStandardOutput(path) {
      closes = false
      state = Mutex(State(file: nil, failed: nil))
      return
    }
    // Non-blocking only while opening: a FIFO nobody reads fails at once (ENXIO) instead of hanging the run.
    let file: FileDescriptor
    do throws(Errno) {
      file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK, mode: 0o666)
    } catch {
      let why = error == .noReader ? "a pipe with no reader" : error.description
      throw UsageError(message: "\(path): cannot open the \(noun) file: \(why)")
    }
    try? file.setBlocking()
    closes = true
    state = Mutex(State(file: file, failed: nil))
  }

  /// Whether `path` names the file standard output already is (`/dev/stdout`, `/proc/self/fd/1`, the file it was
  /// redirected to): such a report is standard output, written as `-` is, so that losing it is losing standard
  /// output (status 3), and the file is not opened again (which would truncate a file stdout appends to).
  private static func isStandardOutput(_ path: String) -> Bool {
    guard let named = try? FileStatus(path: path), let output = try? FileStatus(openFile: STDOUT_FILENO) else {
      return false
    }
    return named.identity == output.identity
  }

  /// Why the report could not be written, if it could not.
  var failure: String? {
    state.withLock { $0.failed }
  }

  /// Appends the outcome's line; false (and `failure` set) when it could not be written whole.
  @discardableResult
  func write(_ outcome: JobOutcome) -> Bool {
    write(line: outcome.jsonLine)
  }

  /// Appends `text` and a newline; false (and `failure` set) when it could not be written whole.
  @discardableResult
  func write(line text: String) -> Bool {
    let line = Array((text + "\n").utf8)
    return state.withLock { state in
      guard state.failed == nil else { return false }
      // `-` shares standard output's lock and its failure, which decides the exit status.
      if !closes {
        guard let code = StandardStream.output.write(line) else { return true }
        state.failed = "\(path): cannot write the \(noun): \(Errno.text(code))"
        return false
      }
      do throws(Errno) {
        try state.file?.writeAll(line[...])
        return true
      } catch {
        state.failed = "\(path): cannot write the \(noun): \(error)"
        return false
      }
    }
  }

  /// Flushes the report to disk and closes it; false (and `failure` set) when that fails.
  @discardableResult
  func close() -> Bool {
    state.withLock { state in
      guard let file = state.file.take() else { return state.failed == nil }
      do throws(Errno) {
        // Only a file has a disk to flush to (a pipe or a terminal does not).
        if (try? file.status())?.kind == .regular { try file.sync() }
      } catch {
        if state.failed == nil { state.failed = "\(path): cannot write the \(noun): \(error)" }
      }
      do throws(Errno) {
        try file.close()
      } catch {
        if state.failed == nil { state.failed = "\(path): cannot write the \(noun): \(error)" }
      }
      return state.failed == nil
    }
  }
}
