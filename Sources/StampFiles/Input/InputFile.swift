import Foundation
import StampSystem
import Synchronization

/// A photo or stamp opened once for reading: a regular file, inside the input root when there is one.
///
/// Everything read of the input (its header, its pixels, the JPEG path's bytes) comes from this descriptor, so
/// what was checked (the file type, the root, the pixel limit) is what is decoded, whatever happens to the name
/// meanwhile. The name is only ever a file name: nothing in it is read as a loader option.
package final class InputFile: Sendable, Hashable {
  /// The path as the manifest gave it, for messages.
  package let path: String
  /// The open file; owned by this handle and closed when it goes.
  package let descriptor: FileDescriptor
  /// Set once the file was read whole as a JPEG and found sound (see `JPEGTransplant.verify`).
  private let verified = Mutex(false)

  private init(path: String, descriptor: consuming FileDescriptor) {
    self.path = path
    self.descriptor = descriptor
  }

  /// Opens `path` without blocking (a FIFO would wait for a writer) and without it becoming a controlling
  /// terminal, then refuses anything but a regular file before a byte is read. With `root` (a real path, see
  /// `InputPolicy.root`), the opened file's real path must lie inside it. Without `followingLink`, a symbolic link
  /// at `path` itself is refused unless there is a `root` (which then judges where it leads).
  package static func open(_ path: String, root: String? = nil, followingLink: Bool = true) throws -> InputFile {
    let noFollow = followingLink || root != nil ? 0 : O_NOFOLLOW
    let opened: FileDescriptor
    let status: FileStatus
    do throws(Errno) {
      opened = try FileDescriptor.open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | noFollow)
    } catch {
      // O_NOFOLLOW on a link fails with ELOOP, which would read "too many levels of symbolic links".
      if error == .tooManyLinks, noFollow != 0 { throw FileError.input(path: path, problem: unfollowedLink) }
      throw FileError.unreadable(path: path, message: error.description)
    }
    do throws(Errno) {
      status = try opened.status()
    } catch {
      throw FileError.unreadable(path: path, message: error.description)
    }
    guard status.kind == .regular else {
      throw FileError.input(path: path, problem: "not a regular file (\(kind(status.kind)))")
    }
    try? opened.setBlocking()
    let file = InputFile(path: path, descriptor: opened)
    if let root { try file.check(inside: root, status) }
    return file
  }

  /// True the first time only: the caller checks the file's data once for all the job's outputs.
  package func firstCheck() -> Bool {
    verified.withLock { done in
      defer { done = true }
      return !done
    }
  }

  /// The file's permission bits (for outputs, which are never more open than their photo).
  package var mode: mode_t {
    (try? descriptor.status())?.permissions ?? 0o600
  }

  /// Resolves the name (every symlink, `..`) and checks that it names the very file opened, inside `root`.
  private func check(inside root: String, _ opened: FileStatus) throws {
    let real: String
    do throws(Errno) {
      real = try FileSystem.realPath(path)
    } catch {
      throw FileError.unreadable(path: path, message: error.description)
    }
    guard (try? FileStatus(path: real))?.identity == opened.identity else {
      throw FileError.unreadable(path: path, message: "the file changed while it was being opened")
    }
    guard PathKey(real).isInside(root) else {
      throw FileError.unreadable(path: path, message: "outside the input root \(root) (it is \(real))")
    }
  }

  private static func kind(_ kind: FileStatus.Kind) -> String {
    switch kind {
    case .fifo: return "a FIFO"
    case .characterDevice: return "a character device"
    case .blockDevice: return "a block device"
    case .folder: return "a folder"
    case .socket: return "a socket"
    default: return "not a plain file"
    }
  }

  /// Why a symbolic link found in a folder (not named by anyone) is not opened through.
  package static let unfollowedLink =
    "a symbolic link found in the photos' folder, not followed (give --input-root a folder that holds its target to "
    + "follow it)"

  /// What keeps the file at `path` from being read as an input, told from its metadata alone (it is never opened,
  /// so a FIFO or a device cannot block): nil for a readable regular file. Without `followingLink`, a symbolic link
  /// at `path` is one (`unfollowedLink`).
  package static func problem(with path: String, followingLink: Bool = true) -> String? {
    if !followingLink, (try? FileStatus(path: path, followingLinks: false))?.kind == .symbolicLink {
      return unfollowedLink
    }
    let status: FileStatus
    do throws(Errno) {
      status = try FileStatus(path: path)
    } catch {
      return error == .noSuchEntry ? "no such file" : error.description
    }
    guard status.kind == .regular else { return "not a regular file" }
    guard FileSystem.isReadable(path) else { return "not readable" }
    return nil
  }

  package static func == (a: InputFile, b: InputFile) -> Bool { a === b }
  package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
