import Foundation
import StampFiles
import StampImport
import StampManifest
import StampSystem

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
      let source = LineSource(adopting: try source.fromStart(), maxLine: LogFile.maxLineBytes)
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
    let file: FileDescriptor?
    let failure: String

    init(_ path: String) {
      let opened: FileDescriptor
      do throws(Errno) {
        opened = try FileDescriptor.open(path, O_RDONLY)
      } catch {
        file = nil
        failure = "cannot read the log (\(error))"
        return
      }
      let status: FileStatus
      do throws(Errno) {
        status = try opened.status()
      } catch {
        file = nil
        failure = "cannot read the log (\(error))"
        return
      }
      if status.kind == .regular {
        file = consume opened
        failure = ""
        return
      }
      do throws(LogFileError) {
        file = try Self.spool(opened)
        failure = ""
      } catch {
        file = nil
        failure = error.message
      }
    }

    /// A descriptor of its own of the log, at its first byte.
    func fromStart() throws(LogFileError) -> FileDescriptor {
      let copy: FileDescriptor?
      do throws(Errno) {
        copy = try file?.duplicate()
      } catch {
        throw LogFileError(message: "cannot read the log (\(error))")
      }
      guard let copy else { throw LogFileError(message: failure) }
      do throws(Errno) {
        try copy.seek(to: 0)
      } catch {
        throw LogFileError(message: "cannot read the log (\(error))")
      }
      return copy
    }

    /// Copies what `input` gives, to its end, into a temporary file removed at once (so nothing is left behind).
    private static func spool(_ input: borrowing FileDescriptor) throws(LogFileError) -> FileDescriptor {
      let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
      let copy: FileDescriptor
      do throws(Errno) {
        copy = try FileSystem.unnamedFile(in: folder, prefix: "stampcam-log-")
      } catch {
        throw LogFileError(message: "cannot copy the log to read it twice (\(error))")
      }
      var block = [UInt8](repeating: 0, count: 64 << 10)
      while true {
        let count: Int
        do throws(Errno) {
          count = try input.read(into: &block, from: 0)
        } catch {
          throw LogFileError(message: "cannot read the log (\(error))")
        }
        if count == 0 { return copy }
        do throws(Errno) {
          try copy.writeAll(block[..<count])
        } catch {
          throw LogFileError(message: "cannot copy the log to read it twice (\(error))")
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
