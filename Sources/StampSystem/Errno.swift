#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

/// An errno value: why a system call failed, told in the words stampcam's messages use (strerror's text with a
/// lower-case first letter, e.g. "no space left on device").
package struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
  /// The number, as `errno` holds it.
  package let rawValue: Int32

  /// The errno numbered `rawValue`.
  package init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// The calling thread's errno now: read it right after the call that failed, before another call can change it.
  package static var current: Errno { Errno(rawValue: errno) }

  /// EINTR: a signal arrived during the call; `retryingInterrupts` calls again.
  package static let interrupted = Errno(rawValue: EINTR)
  /// ENOENT: no such file or folder.
  package static let noSuchEntry = Errno(rawValue: ENOENT)
  /// ENOSPC: the device is full.
  package static let noSpace = Errno(rawValue: ENOSPC)
  /// EIO: the device failed to read or write.
  package static let ioFailure = Errno(rawValue: EIO)
  /// EEXIST: the name is taken.
  package static let exists = Errno(rawValue: EEXIST)
  /// ELOOP: a symbolic link where O_NOFOLLOW forbade one (or too many links).
  package static let tooManyLinks = Errno(rawValue: ELOOP)
  /// ENOTDIR: a component is not a folder.
  package static let notAFolder = Errno(rawValue: ENOTDIR)
  /// EWOULDBLOCK: a lock another holds, or a non-blocking descriptor not ready.
  package static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
  /// ENXIO: a FIFO opened for writing without blocking that nobody reads.
  package static let noReader = Errno(rawValue: ENXIO)

  /// The text, e.g. "no space left on device"; the only place the system's errno text is read.
  package var description: String {
    guard let text = strerror(rawValue) else { return "error \(rawValue)" }
    let words = String(cString: text)
    return words.prefix(1).lowercased() + words.dropFirst()
  }

  /// The text for the errno numbered `code`.
  package static func text(_ code: Int32) -> String {
    Errno(rawValue: code).description
  }
}
