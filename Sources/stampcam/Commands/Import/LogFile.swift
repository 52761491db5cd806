import Foundation
import StampFiles
import StampImport

/// A log file read in 64 KiB blocks, a line at a time: the import keeps no more of it than a line.
enum LogFile {
  /// The longest line read, in bytes: a getevent line is under 100, a CDP message a few KB.
  static let maxLineBytes = 1 << 20

  /// The lines of the file at `path`, each reading from its start (see `LogLines`).
  static func lines(_ path: String) -> LogLines {
    LogLines(pieces: {
      let fd = open(path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else { throw LogFileError(message: "cannot read the log (\(Errno.text(errno)))") }
      let reader = Reader(fd: fd)
      return { try reader.next() }
    })
  }

  /// One reading of the file; closes it at the end or when let go.
  private final class Reader {
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var line = 0

    init(fd: Int32) { self.fd = fd }
    deinit { if fd >= 0 { close(fd) } }

    /// The next piece up to a line feed (without it), nil at the end.
    func next() throws -> String? {
      while true {
        let end = buffer[start...].firstIndex(of: 10)
        guard (end ?? buffer.count) - start <= LogFile.maxLineBytes else {
          throw ImportError.invalid(line: line + 1, message: "the line is over \(LogFile.maxLineBytes) bytes long")
        }
        if let end {
          defer { start = end + 1 }
          line += 1
          return String(decoding: buffer[start..<end], as: UTF8.self)
        }
        buffer.removeSubrange(0..<start)
        start = 0
        guard fd >= 0 else { return nil }
        var block = [UInt8](repeating: 0, count: 64 << 10)
        let count = block.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 {
          if errno == EINTR { continue }
          throw LogFileError(message: "cannot read the log (\(Errno.text(errno)))")
        }
        if count == 0 {
          close(fd)
          fd = -1
          guard !buffer.isEmpty else { return nil }
          line += 1
          defer { buffer.removeAll() }
          return String(decoding: buffer, as: UTF8.self)
        }
        buffer += block[..<count]
      }
    }
  }
}

/// The log file cannot be read.
struct LogFileError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
