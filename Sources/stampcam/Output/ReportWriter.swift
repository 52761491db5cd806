import Foundation
import StampBatch
import StampFiles
import Synchronization

/// `--report FILE|-`: one JSON line per job as it ends, written at once so a report survives an interruption.
/// Every write is checked, and the close: a report that cannot be written (a full disk, `/dev/full`, a closed
/// pipe) is an error, remembered in `failure`, never silently short.
final class ReportWriter: Sendable {
  private let fd: Int32
  private let path: String
  private let closes: Bool
  /// Why the report could not be written; held while writing, so that lines never interleave.
  private let failed = Mutex<String?>(nil)

  /// Opens (truncates) the report; call only once the manifest is known valid and the report is known to be none
  /// of the batch's files (see `OutputClaims`).
  init(path: String) throws {
    self.path = path
    if path == "-" || Self.isStandardOutput(path) {
      fd = STDOUT_FILENO
      closes = false
    } else {
      // Non-blocking only while opening: a FIFO nobody reads fails at once (ENXIO) instead of hanging the run.
      fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0o666)
      guard fd >= 0 else {
        let why = errno == ENXIO ? "a pipe with no reader" : Errno.text(errno)
        throw UsageError(message: "\(path): cannot open the report file: \(why)")
      }
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
      closes = true
    }
  }

  /// Whether `path` names the file standard output already is (`/dev/stdout`, `/proc/self/fd/1`, the file it was
  /// redirected to): such a report is standard output, written as `-` is, so that losing it is losing standard
  /// output (status 3), and the file is not opened again (which would truncate a file stdout appends to).
  private static func isStandardOutput(_ path: String) -> Bool {
    var named = stat()
    var output = stat()
    guard stat(path, &named) == 0, fstat(STDOUT_FILENO, &output) == 0 else { return false }
    return named.st_dev == output.st_dev && named.st_ino == output.st_ino
  }

  /// Why the report could not be written, if it could not.
  var failure: String? {
    failed.withLock { $0 }
  }

  /// Appends the outcome's line; false (and `failure` set) when it could not be written whole.
  @discardableResult
  func write(_ outcome: JobOutcome) -> Bool {
    let line = Array((outcome.jsonLine + "\n").utf8)
    return failed.withLock { failed in
      guard failed == nil else { return false }
      // `-` shares standard output's lock and its failure, which decides the exit status.
      if !closes {
        guard let code = StandardStream.output.write(line) else { return true }
        failed = "\(path): cannot write the report: \(Errno.text(code))"
        return false
      }
      var offset = 0
      while offset < line.count {
        let n = line.withUnsafeBytes { Foundation.write(fd, $0.baseAddress.map { $0 + offset }, line.count - offset) }
        if n < 0, errno == EINTR { continue }
        guard n > 0 else {
          failed = "\(path): cannot write the report: \(Errno.text(errno))"
          return false
        }
        offset += n
      }
      return true
    }
  }

  /// Flushes the report to disk and closes it; false (and `failure` set) when that fails.
  @discardableResult
  func close() -> Bool {
    failed.withLock { failed in
      guard closes else { return failed == nil }
      var info = stat()
      let regular = fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
      if regular, fsync(fd) != 0, failed == nil {
        failed = "\(path): cannot write the report: \(Errno.text(errno))"
      }
      if Foundation.close(fd) != 0, failed == nil {
        failed = "\(path): cannot write the report: \(Errno.text(errno))"
      }
      return failed == nil
    }
  }
}
