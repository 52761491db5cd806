import Foundation
import StampSystem

/// A folder held open by descriptor: what is created in it lands in this very folder even when its path changes
/// meanwhile (a folder swapped for a symbolic link cannot redirect anything).
package final class Folder: Sendable {
  /// The open descriptor (O_DIRECTORY); owned by this handle and closed when it goes.
  package let descriptor: FileDescriptor
  /// The folder as the user would name it, for messages.
  package let display: String

  private init(descriptor: consuming FileDescriptor, display: String) {
    self.descriptor = descriptor
    self.display = display
  }

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
      self.init(Errno(rawValue: code))
    }

    /// `error` as a reason: the folder-specific ones for missing entries, non-folders and links.
    package init(_ error: Errno) {
      switch error {
      case .noSuchEntry: self = .missing
      case .notAFolder: self = .notAFolder
      case .tooManyLinks: self = .symbolicLink
      default: self = .system(error.rawValue)
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
    do throws(Errno) {
      return Folder(descriptor: try FileDescriptor.open(path, O_RDONLY | O_DIRECTORY), display: path)
    } catch {
      throw Failure(name: path, reason: Reason(error))
    }
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
    let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW
    let shown = display + "/" + name
    var failure: Errno
    do throws(Errno) {
      return Folder(descriptor: try descriptor.open(entry: name, flags), display: shown)
    } catch {
      failure = error
    }
    if failure == .noSuchEntry, creating {
      do throws(Errno) {
        try descriptor.makeFolder(name, mode: mode)
      } catch  where error != .exists {
        throw Failure(name: name, reason: Reason(error))
      } catch {}
      do throws(Errno) {
        return Folder(descriptor: try descriptor.open(entry: name, flags), display: shown)
      } catch {
        failure = error
      }
    }
    let isLink = (try? descriptor.status(ofEntry: name))?.kind == .symbolicLink
    throw Failure(name: name, reason: isLink ? .symbolicLink : Reason(failure))
  }

  /// The folder's identity (device and inode).
  package var identity: FileIdentity? { (try? descriptor.status())?.identity }

  /// Flushes the folder's entries (a rename in it) to disk.
  func sync() throws {
    do throws(Errno) {
      try descriptor.sync()
    } catch {
      throw FileError.write(path: display, message: Self.reason(error.rawValue))
    }
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
      do throws(Errno) {
        try FileSystem.makeFolder(prefix, mode: madeMode)
      } catch  where error != .exists {
        throw Failure(name: prefix, reason: Reason(error))
      } catch {
        guard let status = try? FileStatus(path: prefix) else { throw Failure(name: prefix, reason: .danglingLink) }
        guard status.kind == .folder else { throw Failure(name: prefix, reason: .notAFolder) }
      }
    }
  }
}
