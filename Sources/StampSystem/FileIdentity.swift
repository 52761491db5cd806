#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

/// What makes a file the same file whatever its name: its device and inode (hard links and symbolic links to it
/// share them).
package struct FileIdentity: Hashable, Sendable {
  /// The device holding the file.
  package let device: UInt64
  /// The file's inode on that device.
  package let inode: UInt64

  /// The identity `stat` gave.
  init(_ info: stat) {
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
  }

  /// The identity of the file `path` names, following symbolic links; nil when there is none.
  package init?(path: String) {
    guard let status = try? FileStatus(path: path) else { return nil }
    self = status.identity
  }
}
