import Foundation
import StampFiles
import StampSystem
import Synchronization

/// Standard output or standard error, written with write(2) and every result checked: a stream that is closed, full
/// or a pipe nobody reads is an error with its own exit status, never a silent loss. `print` would leave the failure
/// in stdio's buffer, and FileHandle's writes trap on some of these.
final class StandardStream: Sendable {
  static let output = StandardStream(fd: STDOUT_FILENO)
  static let error = StandardStream(fd: STDERR_FILENO)

  private struct State {
    /// Closed when the process started: held so that no file takes its number, but never written.
    var closed = false
    /// The errno of the first write that failed; later writes are not tried.
    var failure: Int32?
  }

  /// Standard output's or error's number: the process's, never closed.
  private let fd: Int32
  /// Held while writing, so that lines from several jobs never interleave.
  private let state = Mutex(State())

  private init(fd: Int32) {
    self.fd = fd
  }

  /// Opens /dev/null onto each of descriptors 0, 1 and 2 that is closed, before anything else is opened: otherwise
  /// the first file stampcam opens (a report, an output) would take the number, and text meant for a terminal
  /// would land in it. A closed stdout or stderr then becomes a pipe nobody reads, so that a path naming it
  /// (`--report /dev/stdout`) fails instead of writing into /dev/null, and stays an error for the first write to
  /// it.
  static func holdClosedDescriptors() {
    var closed: [Int32] = []
    for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where systemFcntl(fd, F_GETFD) == -1 && errno == EBADF {
      // open(2) returns the lowest free number, which is `fd`: the lower ones are open by now. Never closed: the
      // process holds it to its end.
      let held = systemOpen("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
      if held != fd, held >= 0 { _ = systemClose(held) }
      if fd != STDIN_FILENO { closed.append(fd) }
    }
    for fd in closed {
      // With 0-2 held, the pipe's two ends take numbers above them.
      var ends: [Int32] = [-1, -1]
      if systemPipe(&ends) == 0 {
        _ = systemClose(ends[0])
        _ = systemDup2(ends[1], fd)
        _ = systemClose(ends[1])
      }
      (fd == STDOUT_FILENO ? output : error).state.withLock { $0.closed = true }
    }
  }

  /// Writes all of `text`; false when the stream failed, now or earlier.
  @discardableResult
  func write(_ text: String) -> Bool {
    write(Array(text.utf8)) == nil
  }

  /// Writes all of `bytes`; the errno when the stream failed, now or earlier, nil when every byte was written.
  func write(_ bytes: [UInt8]) -> Int32? {
    state.withLock { state in
      if let failure = state.failure { return failure }
      if state.closed {
        state.failure = EBADF
        return EBADF
      }
      var offset = 0
      while offset < bytes.count {
        let n = bytes.withUnsafeBytes { all in
          Errno.retryingInterrupts(
            { systemWrite(fd, all.baseAddress.map { $0 + offset }, all.count - offset) }, failed: { $0 < 0 })
        }
        if n < 0, errno == EAGAIN || errno == EWOULDBLOCK {
          // A non-blocking descriptor handed down by the parent (node's pipes are): wait until it drains.
          if Errno.retryingInterrupts({ systemPoll(fd, events: Int16(POLLOUT)) }, failed: { $0 < 0 }) >= 0 { continue }
        }
        guard n > 0 else {
          state.failure = n < 0 ? errno : EIO
          return state.failure
        }
        offset += n
      }
      return nil
    }
  }

  /// Why a write failed, in words (`no space left on device`); nil when none did.
  var failure: String? {
    state.withLock { $0.failure }.map { Errno.text($0) }
  }
}
