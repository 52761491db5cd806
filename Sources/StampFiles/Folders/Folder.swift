import Foundation

/// A folder held open by descriptor: what is created in it lands in this very folder even when its path changes
/// meanwhile (a folder swapped for a symbolic link cannot redirect anything).
package final class Folder: Sendable {
  /// The open descriptor (O_DIRECTORY); owned by this handle and closed when it goes.
  package let descriptor: Int32
  /// The folder as the user would name it, for messages.
  package let display: String

  private init(descriptor: Int32, display: String) {
    self.descriptor = descriptor
    self.display = display
  }

  deinit { close(descriptor) }

  /// Why a folder could not be opened or made: the component at fault and the reason, e.g. `.symbolicLink`.
  package struct Failure: Error, Equatable, CustomStringConvertible {
    /// The component at fault, as the caller named it.
    package let name: String
    /// What went wrong.
    package let reason: Reason
    package var description: String { "\(name): \(reason)" }
  }

  /// What went wrong with a folder, for callers to decide by; told in words by `description`.
  package enum Reason: Equatable, Sendable, CustomStringConvertible {
    /// Nothing is there (ENOENT).
    case missing
    /// Something other than a folder is there (ENOTDIR, or found by stat).
    case notAFolder
    /// A symbolic link is there, and folders are never reached through one (ELOOP, or found by lstat).
    case symbolicLink
    /// A symbolic link to nothing is there.
    case danglingLink
    /// The name is empty, `.`, `..`, or holds a `/`.
    case notAPlainName
    /// Any other errno.
    case system(Int32)

    /// `code` as a reason: the folder-specific ones for missing entries, non-folders and links.
    package init(errno code: Int32) {
      switch code {
      case ENOENT: self = .missing
      case ENOTDIR: self = .notAFolder
      case ELOOP: self = .symbolicLink
      default: self = .system(code)
      }
    }

    package var description: String {
      switch self {
      case .missing: return "no such file or folder"
      case .notAFolder: return "is not a folder"
      case .symbolicLink: return "is a symbolic link"
      case .danglingLink: return "a symbolic link to nothing"
      case .notAPlainName: return "is not a plain folder name"
      case .system(let code): return Errno.text(code)
      }
    }
  }

  /// The mode folders stampcam makes are created with: writable by their owner alone, whatever the umask (which can
  /// only take more away), so that no other user can add a file or a link to them.
  package static let madeMode: mode_t = 0o755

  /// Opens the folder at `path`, following symbolic links (the user named it), creating it and its parents when
  /// `creating` and missing (see `make`: each with `madeMode`).
  package static func open(path: String, creating: Bool = false) throws -> Folder {
    if creating { try make(path) }
    let fd = Foundation.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw Failure(name: path, reason: Reason(errno: errno)) }
    return Folder(descriptor: fd, display: path)
  }

  /// The subfolder `name` (one component, neither `.` nor `..`), made when missing and `creating` (with `mode`, which
  /// the umask can only narrow), never reached through a symbolic link: it is made (mkdirat) only in this folder,
  /// already open, and opened with O_NOFOLLOW.
  package func child(_ name: String, creating: Bool, mode: mode_t = Folder.madeMode) throws -> Folder {
    // Bytes, not Characters: a `/` followed by a combining mark is one Character, and would pass a Character test.
    let bytes = name.utf8
    guard !bytes.isEmpty, !bytes.elementsEqual(".".utf8), !bytes.elementsEqual("..".utf8), !bytes.contains(0x2F) else {
      throw Failure(name: name, reason: .notAPlainName)
    }
    let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
    var fd = openat(descriptor, name, flags)
    if fd < 0, errno == ENOENT, creating {
      guard mkdirat(descriptor, name, mode) == 0 || errno == EEXIST else {
        throw Failure(name: name, reason: Reason(errno: errno))
      }
      fd = openat(descriptor, name, flags)
    }
    guard fd >= 0 else {
      let code = errno
      let isLink = FileIdentity.isSymbolicLink(in: descriptor, name: name)
      throw Failure(name: name, reason: isLink ? .symbolicLink : Reason(errno: code))
    }
    return Folder(descriptor: fd, display: display + "/" + name)
  }

  /// The folder's identity (device and inode).
  package var identity: FileIdentity? { FileIdentity(descriptor: descriptor) }

  /// Flushes the folder's entries (a rename in it) to disk.
  func sync() throws {
    guard fsync(descriptor) == 0 else { throw FileError.write(path: display, message: Self.reason(errno)) }
  }

  /// errno in words, with the folder-specific phrases for missing entries, non-folders and links.
  package static func reason(_ code: Int32) -> String { "\(Reason(errno: code))" }
}

extension Folder {
  /// The folders of `path` one by one, from the first: `a`, `a/b`, `a/b/c` (`/a`... for an absolute path).
  package static func prefixes(of path: String) -> [String] {
    var prefix = path.utf8.first == UInt8(ascii: "/") ? "/" : ""
    return path.utf8.split(separator: UInt8(ascii: "/")).map { part in
      if !prefix.isEmpty, prefix != "/" { prefix += "/" }
      prefix += String(decoding: part, as: UTF8.self)
      return prefix
    }
  }

  /// Makes the folder at `path` and each missing parent, one at a time; a failure names the component at fault
  /// (`a/b: is not a folder`) where Foundation's `createDirectory` said only "NSCocoaErrorDomain error 512". Each is
  /// made with `madeMode`.
  static func make(_ path: String) throws {
    for prefix in prefixes(of: path) {
      if mkdir(prefix, madeMode) == 0 { continue }
      let code = errno
      var info = stat()
      guard code == EEXIST else { throw Failure(name: prefix, reason: Reason(errno: code)) }
      guard stat(prefix, &info) == 0 else { throw Failure(name: prefix, reason: .danglingLink) }
      guard info.st_mode & S_IFMT == S_IFDIR else { throw Failure(name: prefix, reason: .notAFolder) }
    }
  }
}

extension FileIdentity {
  /// True when the entry `name` of the open folder is a symbolic link.
  static func isSymbolicLink(in folder: Int32, name: String) -> Bool {
    var info = stat()
    return fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFLNK
  }
}
