/// What makes a file the same file whatever its name: its device and inode (hard links and symbolic links to it
/// share them).
package struct FileIdentity: Hashable, Sendable {
  /// The device holding the file.
  package let device: UInt64
  /// The file's inode on that device.
  package let inode: UInt64

  /// The identity of the file on `device` numbered `inode`.
  package init(device: UInt64, inode: UInt64) {
    self.device = device
    self.inode = inode
  }

  /// The identity of the file `path` names, following symbolic links; nil when there is none.
  package init?(path: String) {
    guard let status = try? FileStatus(path: path) else { return nil }
    self = status.identity
  }
}
