import Foundation

/// What makes a file the same file whatever its name: its device and inode (hard links and symbolic links to it
/// share them).
package struct FileIdentity: Hashable, Sendable {
  /// The device holding the file.
  package let device: UInt64
  /// The file's inode on that device.
  package let inode: UInt64

  /// The identity of the file `path` names, following symbolic links; nil when there is none.
  package init?(path: String) {
    guard let info = Self.status(path: path) else { return nil }
    self.init(info)
  }

  /// The identity of the entry `name` of the open folder `folder`, not following a symbolic link; nil when there is
  /// none.
  init?(in folder: Int32, name: String) {
    guard let info = Self.status(in: folder, name: name) else { return nil }
    self.init(info)
  }

  /// What `stat` says of the file `path` names (links followed); nil when there is none.
  static func status(path: String) -> stat? {
    var info = stat()
    return stat(path, &info) == 0 ? info : nil
  }

  /// What `fstatat` says of the entry `name` of the open folder `folder` itself (a link's own); nil when none.
  static func status(in folder: Int32, name: String) -> stat? {
    var info = stat()
    return fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
  }

  /// The identity of the entry `name` of `folder` itself (a symbolic link's own, not its target's); nil when there
  /// is none.
  package static func entry(in folder: Folder, name: String) -> FileIdentity? {
    FileIdentity(in: folder.descriptor, name: name)
  }

  /// The identity of an open file or folder.
  init?(descriptor: Int32) {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    self.init(info)
  }

  init(_ info: stat) {
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
  }
}
