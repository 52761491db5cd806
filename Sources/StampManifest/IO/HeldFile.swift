#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

/// A manifest opened once for several passes (validated, then rendered): each pass reads this very file from its
/// first byte, never another renamed over its path, and stops with a failure as soon as the file's version (device,
/// inode, size, modification and change times) differs from the one seen at the open: a manifest edited in place,
/// or replaced (which moves the old file's change time), is never rendered from lines that were not validated. An
/// edit of the same size within one tick of the file system's clock after its last write is beyond a version's sight.
final class HeldFile: Sendable {
  /// The open file's descriptor; each pass reads it with `pread`, at an offset of its own.
  let descriptor: Int32
  /// The version when it was opened.
  let version: Version

  /// What identifies one version of a file's contents.
  struct Version: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: [Int64]
    var changed: [Int64]

    init?(descriptor: Int32) {
      var info = stat()
      guard fstat(descriptor, &info) == 0 else { return nil }
      (device, inode, size) = (UInt64(info.st_dev), UInt64(info.st_ino), Int64(info.st_size))
      #if canImport(Darwin)
        let (m, c) = (info.st_mtimespec, info.st_ctimespec)
      #else
        let (m, c) = (info.st_mtim, info.st_ctim)
      #endif
      modified = [Int64(m.tv_sec), Int64(m.tv_nsec)]
      changed = [Int64(c.tv_sec), Int64(c.tv_nsec)]
    }
  }

  private init(descriptor: Int32, version: Version) {
    self.descriptor = descriptor
    self.version = version
  }

  deinit { close(descriptor) }

  /// Opens `path` as `ManifestFile.open` does (a regular file only), or returns why it cannot be read.
  static func open(_ path: String) -> (HeldFile?, String?) {
    let (input, reason) = ManifestFile.open(path)
    guard let input else { return (nil, reason) }
    return holding(input.descriptor)
  }

  /// Holds a copy of the open regular file `descriptor` (which the caller keeps), read from its first byte at every
  /// pass: a spooled manifest, whose file has no name.
  static func holding(_ descriptor: Int32) -> (HeldFile?, String?) {
    let fd = dup(descriptor)
    guard fd >= 0 else { return (nil, ManifestFile.reason(errno)) }
    guard let version = Version(descriptor: fd) else {
      close(fd)
      return (nil, ManifestFile.reason(errno))
    }
    return (HeldFile(descriptor: fd, version: version), nil)
  }

  /// The reason a pass stops, or nil while the file is the version opened.
  func change() -> String? {
    Version(descriptor: descriptor) == version
      ? nil
      : "the file changed after it was opened for validation (size, modification or change time); nothing more is read from it"
  }
}
