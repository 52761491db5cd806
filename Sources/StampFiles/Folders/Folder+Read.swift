import Foundation
import StampSystem

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
    let opened: FileDescriptor
    do throws(Errno) {
      opened = try descriptor.open(entry: name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
    } catch {
      if error == .noSuchEntry { return nil }
      if error == .tooManyLinks { throw .notAFile(name: name, what: "is a symbolic link") }
      throw .failed(name: name, reason: Folder.reason(error.rawValue))
    }
    return try opened.closeAfter { file throws(ReadRefusal) in
      let failed = { (error: Errno) in ReadRefusal.failed(name: name, reason: Folder.reason(error.rawValue)) }
      let status: FileStatus
      do throws(Errno) { status = try file.status() } catch { throw failed(error) }
      guard status.kind == .regular else { throw .notAFile(name: name, what: Self.what(status.kind)) }
      guard status.size <= limit else { throw .tooLarge(name: name, size: status.size, limit: limit) }
      var bytes = [UInt8](repeating: 0, count: limit + 1)
      var count = 0
      while count < bytes.count {
        let n: Int
        do throws(Errno) {
          n = try file.read(into: &bytes, from: count)
        } catch {
          throw failed(error)
        }
        if n == 0 { break }
        count += n
      }
      guard count <= limit else { throw .tooLarge(name: name, size: Int64(count), limit: limit) }
      return Array(bytes[..<count])
    }
  }

  /// What an entry that is not a regular file is, in words.
  private static func what(_ kind: FileStatus.Kind) -> String {
    switch kind {
    case .fifo: return "is a FIFO"
    case .folder: return "is a folder"
    case .characterDevice, .blockDevice: return "is a device"
    case .socket: return "is a socket"
    default: return "is not a regular file"
    }
  }
}
