#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

/// What `stat` says of a file, in the terms stampcam decides by: its kind, permissions, size, identity and times.
package struct FileStatus: Sendable, Equatable {
  /// What sort of file it is.
  package enum Kind: Sendable, Equatable {
    case regular, folder, symbolicLink, fifo, characterDevice, blockDevice, socket, other
  }

  /// What sort of file it is.
  package let kind: Kind
  /// The permission bits (and set-user-ID, set-group-ID, sticky): `st_mode & 0o7777`.
  package let permissions: mode_t
  /// The size in bytes.
  package let size: Int64
  /// The user who owns it.
  package let owner: uid_t
  /// Its group.
  package let group: gid_t
  /// The device and inode.
  package let identity: FileIdentity
  /// The modification time, in nanoseconds since 1970.
  package let modified: Int64
  /// The change time (of the inode: contents, name, mode), in nanoseconds since 1970.
  package let changed: Int64

  /// The status `stat` filled in.
  init(_ info: stat) {
    switch info.st_mode & S_IFMT {
    case S_IFREG: kind = .regular
    case S_IFDIR: kind = .folder
    case S_IFLNK: kind = .symbolicLink
    case S_IFIFO: kind = .fifo
    case S_IFCHR: kind = .characterDevice
    case S_IFBLK: kind = .blockDevice
    case S_IFSOCK: kind = .socket
    default: kind = .other
    }
    permissions = info.st_mode & 0o7777
    size = Int64(info.st_size)
    owner = info.st_uid
    group = info.st_gid
    identity = FileIdentity(info)
    #if canImport(Darwin)
      let (m, c) = (info.st_mtimespec, info.st_ctimespec)
    #else
      let (m, c) = (info.st_mtim, info.st_ctim)
    #endif
    modifiedSeconds = Int64(m.tv_sec)
    modified = Int64(m.tv_sec) &* 1_000_000_000 &+ Int64(m.tv_nsec)
    changed = Int64(c.tv_sec) &* 1_000_000_000 &+ Int64(c.tv_nsec)
  }

  /// The status of the file `path` names, following symbolic links when `followingLinks` (else a link's own).
  package init(path: String, followingLinks: Bool = true) throws(Errno) {
    var info = stat()
    let result = Errno.retryingInterrupts(
      { followingLinks ? systemStat(path, &info) : systemLstat(path, &info) }, failed: { $0 != 0 })
    guard result == 0 else { throw Errno.current }
    self.init(info)
  }

  /// The status of the open file `raw`, which the caller need not own (standard output, say).
  package init(openFile raw: Int32) throws(Errno) {
    var info = stat()
    _ = try Errno.retryingInterrupts { systemFstat(raw, &info) }
    self.init(info)
  }

  /// The modification time's whole seconds since 1970.
  package let modifiedSeconds: Int64

  /// The version these times and this identity and size make.
  package var version: FileVersion {
    FileVersion(identity: identity, size: size, modified: modified, changed: changed)
  }
}
