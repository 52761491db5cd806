import Foundation

extension Folder {
  /// Why a small file of the folder could not be read (see `read(_:limit:)`).
  package enum ReadRefusal: Error, Equatable, CustomStringConvertible {
    /// The entry is not a regular file (a link, a FIFO, a folder...): it is never read. `what` says what it is.
    case notAFile(name: String, what: String)
    /// The file is larger than the caller's limit: none of it is read.
    case tooLarge(name: String, size: Int64, limit: Int)
    /// The system refused.
    case failed(name: String, reason: String)

    package var description: String {
      switch self {
      case .notAFile(let name, let what): return "\(name) \(what)"
      case .tooLarge(let name, let size, let limit): return "\(name) holds \(size) bytes, more than its \(limit)"
      case .failed(let name, let reason): return "\(name): \(reason)"
      }
    }
  }

  /// The bytes of the regular file `name` in this folder, at most `limit` of them; nil when there is no such
  /// entry. The entry is opened without following a symbolic link and without blocking (a FIFO would wait for a
  /// writer), and its size is checked on the open file before a byte is read: a forged file of any size costs one
  /// `fstat`, and a file that grows meanwhile is still read no further than `limit` + 1 bytes.
  package func read(_ name: String, limit: Int) throws(ReadRefusal) -> [UInt8]? {
    let fd = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    guard fd >= 0 else {
      let code = errno
      if code == ENOENT { return nil }
      if code == ELOOP { throw .notAFile(name: name, what: "is a symbolic link") }
      throw .failed(name: name, reason: Folder.reason(code))
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .failed(name: name, reason: Folder.reason(errno)) }
    guard info.st_mode & S_IFMT == S_IFREG else { throw .notAFile(name: name, what: Self.what(info.st_mode)) }
    guard info.st_size <= limit else { throw .tooLarge(name: name, size: Int64(info.st_size), limit: limit) }
    var bytes = [UInt8](repeating: 0, count: limit + 1)
    var count = 0
    while count < bytes.count {
      let n = bytes.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress.map { $0 + count }, limit + 1 - count) }
      if n < 0, errno == EINTR { continue }
      guard n >= 0 else { throw .failed(name: name, reason: Folder.reason(errno)) }
      if n == 0 { break }
      count += n
    }
    guard count <= limit else { throw .tooLarge(name: name, size: Int64(count), limit: limit) }
    return Array(bytes[..<count])
  }

  /// What an entry that is not a regular file is, in words.
  private static func what(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: return "is a FIFO"
    case S_IFDIR: return "is a folder"
    case S_IFCHR, S_IFBLK: return "is a device"
    case S_IFSOCK: return "is a socket"
    default: return "is not a regular file"
    }
  }
}
