#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

/// An open file or folder, owned: it is closed exactly once, by `close()` or when the value goes, and cannot be
/// copied, so no two owners can close it (or one use it after the other closed it and its number was reused).
/// Calls on it retry when interrupted (EINTR) and throw errno's value when they fail.
package struct FileDescriptor: ~Copyable, Sendable {
  /// The descriptor's number, lent to a C call that reads or writes it; valid only while this value lives.
  package let rawValue: Int32

  /// Takes ownership of the open descriptor `rawValue`.
  package init(adopting rawValue: Int32) {
    self.rawValue = rawValue
  }

  deinit { _ = systemClose(rawValue) }

  /// Closes the descriptor, and says when the system reports a failure (a write that NFS could not flush): it is
  /// closed either way.
  package consuming func close() throws(Errno) {
    let raw = rawValue
    discard self
    guard systemClose(raw) == 0 else { throw Errno.current }
  }

  /// Gives up ownership: the number is the caller's to close (a stream or a C library that closes it).
  package consuming func release() -> Int32 {
    let raw = rawValue
    discard self
    return raw
  }

  /// Runs `body` with the descriptor, then closes it, whether `body` returns or throws.
  package consuming func closeAfter<Result, Failure: Error>(
    _ body: (borrowing FileDescriptor) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try body(self)
  }

  /// Opens `path` (open(2) with `flags` and, for a file it creates, `mode`), O_CLOEXEC added.
  package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(Errno) -> FileDescriptor {
    FileDescriptor(adopting: try Errno.retryingInterrupts { systemOpen(path, flags | O_CLOEXEC, mode) })
  }

  /// Opens the entry `name` of this open folder (openat(2) with `flags` and `mode`), O_CLOEXEC added.
  package func open(entry name: String, _ flags: Int32, mode: mode_t = 0) throws(Errno) -> FileDescriptor {
    FileDescriptor(adopting: try Errno.retryingInterrupts { systemOpenat(rawValue, name, flags | O_CLOEXEC, mode) })
  }

  /// A second descriptor of the same open file (dup(2)), sharing its offset and flags.
  package func duplicate() throws(Errno) -> FileDescriptor {
    FileDescriptor(adopting: try Errno.retryingInterrupts { systemDup(rawValue) })
  }

  /// A descriptor of its own of the open file `raw`, which this process holds but nobody here owns (standard
  /// input, output and error).
  package static func duplicating(_ raw: Int32) throws(Errno) -> FileDescriptor {
    FileDescriptor(adopting: try Errno.retryingInterrupts { systemDup(raw) })
  }

  /// Reads up to `buffer.count` bytes from the current offset; 0 at the end of the file.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
    try Errno.retryingInterrupts { systemRead(rawValue, buffer.baseAddress, buffer.count) }
  }

  /// Reads up to `buffer.count` bytes at `offset`, leaving the descriptor's own offset where it was; 0 past the end.
  package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Errno) -> Int {
    try Errno.retryingInterrupts { systemPread(rawValue, buffer.baseAddress, buffer.count, offset) }
  }

  /// Reads into `bytes` from `index` to their end, from the current offset or, given `offset`, from there (leaving
  /// the descriptor's own offset where it was): how many bytes were read, 0 at the end of the file.
  package func read(into bytes: inout [UInt8], from index: Int, at offset: Int64? = nil) throws(Errno) -> Int {
    let fd = rawValue
    let count = bytes.withUnsafeMutableBytes { all in
      let buffer = UnsafeMutableRawBufferPointer(rebasing: all[index...])
      return Errno.retryingInterrupts(
        {
          guard let offset else { return systemRead(fd, buffer.baseAddress, buffer.count) }
          return systemPread(fd, buffer.baseAddress, buffer.count, offset)
        }, failed: { $0 == -1 })
    }
    guard count != -1 else { throw Errno.current }
    return count
  }

  /// Every byte from the current offset to the end of the file.
  package func readToEnd() throws(Errno) -> [UInt8] {
    var bytes: [UInt8] = []
    while true {
      let start = bytes.count
      bytes.append(contentsOf: repeatElement(0, count: 1 << 16))
      let count = try read(into: &bytes, from: start)
      bytes.removeLast((1 << 16) - count)
      if count == 0 { return bytes }
    }
  }

  /// Writes some of `bytes`: how many were written (a pipe or a full disk may take fewer than all).
  package func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
    try Errno.retryingInterrupts { systemWrite(rawValue, bytes.baseAddress, bytes.count) }
  }

  /// Writes all of `bytes`, however many calls that takes; a call that writes nothing is EIO.
  package func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
    var offset = 0
    while offset < bytes.count {
      let written = try write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
      guard written > 0 else { throw Errno.ioFailure }
      offset += written
    }
  }

  /// Writes all of `bytes` (see `writeAll(_:)`).
  package func writeAll(_ bytes: ArraySlice<UInt8>) throws(Errno) {
    let failure = bytes.withUnsafeBytes { raw -> Errno? in
      do throws(Errno) {
        try writeAll(raw)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
  }

  /// What fstat(2) says of the open file.
  package func status() throws(Errno) -> FileStatus {
    var info = stat()
    _ = try Errno.retryingInterrupts { systemFstat(rawValue, &info) }
    return FileStatus(info)
  }

  /// What fstatat(2) says of the entry `name` of this open folder: its own, not a link's target's, unless
  /// `followingLinks`.
  package func status(ofEntry name: String, followingLinks: Bool = false) throws(Errno) -> FileStatus {
    var info = stat()
    _ = try Errno.retryingInterrupts { systemFstatat(rawValue, name, &info, followingLinks: followingLinks) }
    return FileStatus(info)
  }

  /// `status(ofEntry:)` of a name given as its bytes, which need not be UTF-8 (a listing's).
  package func status(ofEntry name: UnsafeBufferPointer<UInt8>, followingLinks: Bool = false) throws(Errno)
    -> FileStatus
  {
    var info = stat()
    let cName = name.map { CChar(bitPattern: $0) } + [0]
    _ = try Errno.retryingInterrupts { systemFstatat(rawValue, cName, &info, followingLinks: followingLinks) }
    return FileStatus(info)
  }

  /// Flushes the file (or a folder's entries) to disk.
  package func sync() throws(Errno) {
    _ = try Errno.retryingInterrupts { systemFsync(rawValue) }
  }

  /// Sets the permission bits.
  package func setPermissions(_ mode: mode_t) throws(Errno) {
    _ = try Errno.retryingInterrupts { systemFchmod(rawValue, mode) }
  }

  /// Sets the owner and the group (`uid_t.max` or `gid_t.max` leaves that one as it is).
  package func setOwner(_ owner: uid_t, group: gid_t) throws(Errno) {
    _ = try Errno.retryingInterrupts { systemFchown(rawValue, owner, group) }
  }

  /// Makes reads and writes wait (clears O_NONBLOCK, which an open uses so that a FIFO cannot block it).
  package func setBlocking() throws(Errno) {
    let flags = try Errno.retryingInterrupts { systemFcntl(rawValue, F_GETFL) }
    _ = try Errno.retryingInterrupts { systemFcntl(rawValue, F_SETFL, flags & ~O_NONBLOCK) }
  }

  /// Moves the offset to `offset` from the start.
  package func seek(to offset: Int64) throws(Errno) {
    _ = try Errno.retryingInterrupts { systemLseek(rawValue, offset, SEEK_SET) }
  }

  /// Takes the exclusive `flock` without waiting: `Errno.wouldBlock` when another open file holds it.
  package func lockExclusively() throws(Errno) {
    _ = try Errno.retryingInterrupts { systemFlock(rawValue, LOCK_EX | LOCK_NB) }
  }
}

extension FileDescriptor {
  /// Makes the folder `name` in this open folder (mkdirat(2)) with `mode`, which the umask can only narrow.
  package func makeFolder(_ name: String, mode: mode_t) throws(Errno) {
    _ = try Errno.retryingInterrupts { systemMkdirat(rawValue, name, mode) }
  }

  /// Removes the file `name` of this open folder (unlinkat(2)).
  package func remove(entry name: String) throws(Errno) {
    _ = try Errno.retryingInterrupts { systemUnlinkat(rawValue, name) }
  }

  /// Renames the entry `name` of this open folder to `newName` in the same folder (renameat(2)), replacing a file
  /// there.
  package func rename(entry name: String, to newName: String) throws(Errno) {
    _ = try Errno.retryingInterrupts { systemRenameat(rawValue, name, rawValue, newName) }
  }

  /// Lists this open folder: calls `body` with each entry's name's bytes (`.` and `..` left out) and its kind
  /// as `d_type` tells it (nil where the file system does not: ask `status(ofEntry:)`). The listing reads a
  /// duplicate of this descriptor, which shares its offset: two listings of one folder at once each need a
  /// descriptor of their own (`open(entry: ".", ...)`).
  package func forEachEntry(_ body: (UnsafeBufferPointer<UInt8>, FileStatus.Kind?) -> Void) throws(Errno) {
    let listing = try duplicate()
    guard
      systemListFolder(
        listing.release(),
        { name, type in
          if name.elementsEqual(".".utf8) || name.elementsEqual("..".utf8) { return }
          body(name, FileStatus.Kind(directoryEntryType: type))
        }) == 0
    else { throw Errno.current }
  }
}

extension FileStatus.Kind {
  /// The kind readdir's `d_type` gives; nil for DT_UNKNOWN.
  init?(directoryEntryType type: UInt8) {
    switch Int32(type) {
    case Int32(DT_REG): self = .regular
    case Int32(DT_DIR): self = .folder
    case Int32(DT_LNK): self = .symbolicLink
    case Int32(DT_FIFO): self = .fifo
    case Int32(DT_CHR): self = .characterDevice
    case Int32(DT_BLK): self = .blockDevice
    case Int32(DT_SOCK): self = .socket
    case Int32(DT_UNKNOWN): return nil
    default: self = .other
    }
  }
}
