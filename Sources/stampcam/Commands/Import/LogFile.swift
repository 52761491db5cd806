import Foundation
import StampFiles
import StampImport
import StampManifest

/// A log file read a line at a time (StampManifest's `LineSource`, 64 KiB blocks): the import keeps no more of it
/// than a line.
enum LogFile {
  /// The longest line read, in bytes: a getevent line is under 100, a CDP message a few KB.
  static let maxLineBytes = 1 << 20

  /// The lines of the file at `path`, each reading from its start (see `LogLines`). The file is opened once, now;
  /// a log that is not a regular file (a pipe, `/dev/stdin`, a FIFO) can be read only once, so it is first copied
  /// into an unlinked temporary file, a block at a time, and every reading starts again there.
  static func lines(_ path: String) -> LogLines {
    let source = Source(path)
    return LogLines(pieces: {
      guard let fd = source.fd else { throw LogFileError(message: source.failure) }
      let copy = dup(fd)
      guard copy >= 0, lseek(copy, 0, SEEK_SET) == 0 else {
        if copy >= 0 { close(copy) }
        throw LogFileError(message: "cannot read the log (\(Errno.text(errno)))")
      }
      let source = LineSource(adopting: copy, maxLine: LogFile.maxLineBytes)
      return {
        switch source.next() {
        case nil: return nil
        case .line(_, let bytes): return String(decoding: bytes, as: UTF8.self)
        case .tooLong(let number):
          throw ImportError.invalid(line: number, message: "the line is over \(LogFile.maxLineBytes) bytes long")
        case .failure(let reason): throw LogFileError(message: "cannot read the log (\(reason))")
        }
      }
    })
  }

  /// The log, open: the file itself when it is a regular one, else a temporary copy of what it gave.
  private final class Source: Sendable {
    let fd: Int32?
    let failure: String

    init(_ path: String) {
      let opened = open(path, O_RDONLY | O_CLOEXEC)
      var info = stat()
      guard opened >= 0, fstat(opened, &info) == 0 else {
        failure = "cannot read the log (\(Errno.text(errno)))"
        if opened >= 0 { close(opened) }
        fd = nil
        return
      }
      if info.st_mode & S_IFMT == S_IFREG {
        (fd, failure) = (opened, "")
        return
      }
      defer { close(opened) }
      switch Self.spool(opened) {
      case .success(let copy): (fd, failure) = (copy, "")
      case .failure(let error): (fd, failure) = (nil, error.message)
      }
    }

    deinit { if let fd { close(fd) } }

    /// Copies what `input` gives, to its end, into a temporary file removed at once (so nothing is left behind).
    private static func spool(_ input: Int32) -> Result<Int32, LogFileError> {
      let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
      var template = Array((folder + "/stampcam-log-XXXXXX").utf8CString)
      let copy = template.withUnsafeMutableBufferPointer { name in name.baseAddress.map { mkstemp($0) } ?? -1 }
      guard copy >= 0 else {
        return .failure(LogFileError(message: "cannot copy the log to read it twice (\(Errno.text(errno)))"))
      }
      unlink(String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
      var block = [UInt8](repeating: 0, count: 64 << 10)
      while true {
        let count = block.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if count == 0 { return .success(copy) }
        if count < 0 && errno == EINTR { continue }
        let written = count < 0 ? -1 : block.withUnsafeBytes { write(copy, $0.baseAddress, count) }
        guard count > 0, written == count else {
          let reason = count < 0 ? "cannot read the log" : "cannot copy the log to read it twice"
          close(copy)
          return .failure(LogFileError(message: "\(reason) (\(Errno.text(errno)))"))
        }
      }
    }
  }
}

/// The log file cannot be read.
struct LogFileError: Error, CustomStringConvertible, Sendable {
  var message: String
  var description: String { message }
}
