#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

/// What the system says of paths and processes, as opposed to open files (`FileDescriptor`).
package enum FileSystem {
  /// Makes the folder `path` (mkdir(2)) with `mode`, which the umask can only narrow.
  package static func makeFolder(_ path: String, mode: mode_t) throws(Errno) {
    _ = try Errno.retryingInterrupts { systemMkdir(path, mode) }
  }

  /// Removes the file `path` (unlink(2)).
  package static func remove(_ path: String) throws(Errno) {
    _ = try Errno.retryingInterrupts { systemUnlink(path) }
  }

  /// The real path of `path`: every symbolic link and `..` resolved (realpath(3)).
  package static func realPath(_ path: String) throws(Errno) -> String {
    guard let real = systemRealpath(path) else { throw Errno.current }
    return real
  }

  /// True when this process may read the file `path` (access(2) with R_OK).
  package static func isReadable(_ path: String) -> Bool {
    systemAccess(path, R_OK) == 0
  }

  /// The text of the symbolic link `path`, or nil when it is none or cannot be read.
  package static func linkText(_ path: String) -> String? {
    systemReadlink(path)
  }

  /// The host's name ("" when it cannot be read).
  package static var hostName: String { systemHostName() }

  /// The user this process acts as (geteuid(2)).
  package static var userID: uid_t { geteuid() }

  /// The time now, in whole seconds since 1970.
  package static var now: time_t { systemTime() }

  /// This process's id.
  package static var processID: pid_t { systemProcessID() }

  /// False only when no process `id` exists (kill(2) with signal 0 says ESRCH); true when one does or when the
  /// system will not say (another user's process: EPERM).
  package static func processExists(_ id: pid_t) -> Bool {
    systemKill(id, 0) == 0 || errno != ESRCH
  }

  /// A new empty file in `folder`, named from `prefix` and six random characters (mkstemp(3)), open for reading
  /// and writing, closed on exec, and removed from the folder at once: it goes when the descriptor is closed,
  /// whatever ends the process. (Should the removal fail, the file is used all the same, and stays.)
  package static func unnamedFile(in folder: String, prefix: String) throws(Errno) -> FileDescriptor {
    var template = Array((folder + "/" + prefix + "XXXXXX").utf8CString)
    let file = FileDescriptor(adopting: try Errno.retryingInterrupts { systemMkstemp(&template) })
    _ = systemFcntl(file.rawValue, F_SETFD, FD_CLOEXEC)
    try? remove(String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    return file
  }
}
