import Foundation
import Synchronization

/// A photo or stamp opened once for reading: a regular file, inside the input root when there is one.
///
/// Everything read of the input (its header, its pixels, the JPEG path's bytes) comes from this descriptor, so
/// what was checked (the file type, the root, the pixel limit) is what is decoded, whatever happens to the name
/// meanwhile. The name is only ever a file name: nothing in it is read as a loader option.
package final class InputFile: Sendable, Hashable {
  /// The path as the manifest gave it, for messages.
  package let path: String
  package let descriptor: Int32
  /// Set once the file was read whole as a JPEG and found sound (see `JPEGTransplant.verify`).
  private let verified = Mutex(false)

  private init(path: String, descriptor: Int32) {
    self.path = path
    self.descriptor = descriptor
  }

  deinit {
    close(descriptor)
  }

  /// Opens `path` without blocking (a FIFO would wait for a writer) and without it becoming a controlling
  /// terminal, then refuses anything but a regular file before a byte is read. With `root` (a real path, see
  /// `InputPolicy.root`), the opened file's real path must lie inside it. Without `followingLink`, a symbolic link
  /// at `path` itself is refused unless there is a `root` (which then judges where it leads).
  package static func open(_ path: String, root: String? = nil, followingLink: Bool = true) throws -> InputFile {
    let noFollow = followingLink || root != nil ? 0 : O_NOFOLLOW
    let fd = Glibc.open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC | noFollow)
    guard fd >= 0 else {
      // O_NOFOLLOW on a link fails with ELOOP, which would read "too many levels of symbolic links".
      if errno == ELOOP, noFollow != 0 { throw FileError.input(path: path, problem: unfollowedLink) }
      throw FileError.unreadable(path: path, message: Errno.current)
    }
    let file = InputFile(path: path, descriptor: fd)
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw FileError.unreadable(path: path, message: Errno.current) }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw FileError.input(path: path, problem: "not a regular file (\(kind(info.st_mode)))")
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    if let root { try file.check(inside: root, info) }
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
    var info = stat()
    return fstat(descriptor, &info) == 0 ? info.st_mode & 0o7777 : 0o600
  }

  /// Resolves the name (every symlink, `..`) and checks that it names the very file opened, inside `root`.
  private func check(inside root: String, _ opened: stat) throws {
    guard let resolved = realpath(path, nil) else {
      throw FileError.unreadable(path: path, message: Errno.current)
    }
    let real = String(cString: resolved)
    free(resolved)
    var named = stat()
    guard stat(real, &named) == 0, named.st_dev == opened.st_dev, named.st_ino == opened.st_ino else {
      throw FileError.unreadable(path: path, message: "the file changed while it was being opened")
    }
    guard PathKey(real).isInside(root) else {
      throw FileError.unreadable(path: path, message: "outside the input root \(root) (it is \(real))")
    }
  }

  private static func kind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: return "a FIFO"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFDIR: return "a folder"
    case S_IFSOCK: return "a socket"
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
    var info = stat()
    if !followingLink, lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK { return unfollowedLink }
    guard stat(path, &info) == 0 else { return errno == ENOENT ? "no such file" : Errno.current }
    guard info.st_mode & S_IFMT == S_IFREG else { return "not a regular file" }
    guard access(path, R_OK) == 0 else { return "not readable" }
    return nil
  }

  package static func == (a: InputFile, b: InputFile) -> Bool { a === b }
  package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
