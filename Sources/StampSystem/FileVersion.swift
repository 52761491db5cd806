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
}

extension FileVersion {
  /// The version of the file `path` names, following symbolic links; nil when there is none.
  package init?(path: String) {
    guard let status = try? FileStatus(path: path) else { return nil }
    self = status.version
  }
}
