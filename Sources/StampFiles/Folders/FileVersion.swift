import Foundation

/// One version of a file: its identity (device and inode), size, and modification and change times to the
/// nanosecond. A file replaced by a rename has another inode; one rewritten in place has another change time, which
/// nobody can set back (`touch -r` sets the modification time only). Two versions are equal only when neither
/// happened, short of a rewrite of the same size within one tick of the file system's clock.
package struct FileVersion: Hashable, Sendable {
  /// The device and inode.
  package let identity: FileIdentity
  /// The size in bytes.
  package let size: Int64
  /// The modification time, in nanoseconds since 1970.
  package let modified: Int64
  /// The change time (of the inode: contents, name, mode), in nanoseconds since 1970.
  package let changed: Int64

  /// The version of the file `path` names, following symbolic links; nil when there is none.
  package init?(path: String) {
    guard let info = FileIdentity.status(path: path) else { return nil }
    self.init(info)
  }

  init(_ info: stat) {
    identity = FileIdentity(info)
    size = Int64(info.st_size)
    #if canImport(Darwin)
      let (m, c) = (info.st_mtimespec, info.st_ctimespec)
    #else
      let (m, c) = (info.st_mtim, info.st_ctim)
    #endif
    modified = Int64(m.tv_sec) &* 1_000_000_000 &+ Int64(m.tv_nsec)
    changed = Int64(c.tv_sec) &* 1_000_000_000 &+ Int64(c.tv_nsec)
  }
}

extension FileVersion {
  /// The version of the entry `name` of `folder` itself (a symbolic link's own, not its target's); nil when there
  /// is none.
  package static func entry(in folder: Folder, name: String) -> FileVersion? {
    FileIdentity.status(in: folder.descriptor, name: name).map(FileVersion.init)
  }
}
