import Foundation

/// Files that appear whole or not at all: written to a temporary file created exclusively (O_EXCL | O_NOFOLLOW) in
/// the target's folder, held open by descriptor, flushed to disk, then renamed over the target within that folder,
/// and the folder flushed. Every output stampcam writes goes through here.
package enum AtomicFile {
  /// Writes `data` to `path` atomically.
  package static func write(_ data: Data, to path: String) throws {
    try write(to: path) { fd in try write(data, to: fd, display: path) }
  }

  /// Lets `fill` write the open temporary file, then renames it over `path` at once; on any failure nothing is
  /// left behind and `path` is untouched.
  package static func write(to path: String, _ fill: (Int32) throws -> Void) throws {
    // A registry of its own: the file is committed at once, and no run's signal handling is waiting on it.
    try stage(try OutputTarget(path: path), registry: TemporaryFiles(), fill).commit()
  }

  /// Creates the temporary file for `target`, registered in `registry` (whose `removeAll` a signal calls) until it is
  /// committed or discarded, lets `fill` write it through its descriptor (which `fill` must not close) and flushes it
  /// to disk; on any failure it is removed. The caller commits or discards the result.
  package static func stage(
    _ target: OutputTarget, registry: TemporaryFiles, _ fill: (Int32) throws -> Void
  ) throws -> StagedFile {
    try stage(target, registry: registry, flushing: true, fill)
  }

  /// Writes `data` over `target` at once, as `write` does, for a caller inside `TemporaryFiles.commit`'s `record`
  /// (whose lock is held): the temporary file is not registered, so one left by a run killed meanwhile is removed
  /// by the next run's sweep of the folder (its name is a `TemporaryName`). Nothing is flushed to disk, which would
  /// hold the lock for every job: for a file whose loss or tearing in a crash costs only work (a resume record,
  /// whose check digest finds it torn).
  package static func writeUnregistered(_ data: Data, to target: OutputTarget) throws {
    let staged = try stage(target, registry: nil, flushing: false) { fd in
      try write(data, to: fd, display: target.display)
    }
    try StagedFile.renameAll([staged], protecting: [], flushing: false)
  }

  /// `stage`, registering the temporary file in `registry` (removed on a signal) when there is one, and flushing it
  /// to disk when `flushing`.
  private static func stage(
    _ target: OutputTarget, registry: TemporaryFiles?, flushing: Bool, _ fill: (Int32) throws -> Void
  ) throws -> StagedFile {
    let folder = target.folder.descriptor
    // Created no more open than it may end: a file another user could open for writing before `limitMode` ran would
    // stay open to them after it.
    let mode = 0o666 & target.modeLimit
    var temporary = TemporaryName.make(for: target.name)
    var fd = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
    if fd < 0, errno == EEXIST {
      temporary = TemporaryName.make(for: target.name)
      fd = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
    }
    guard fd >= 0 else { throw FileError.write(path: target.display, message: Folder.reason(errno)) }
    let staged = StagedFile(target: target, temporary: temporary, registry: registry)
    registry?.add(staged)
    do {
      defer { close(fd) }
      try fill(fd)
      try limitMode(fd, to: target.modeLimit, display: target.display)
      guard !flushing || fsync(fd) == 0 else {
        throw FileError.write(path: target.display, message: Folder.reason(errno))
      }
    } catch {
      unlinkat(folder, temporary, 0)
      registry?.remove(staged)
      throw error
    }
    return staged
  }

  /// Writes all of `data` to `fd`.
  private static func write(_ data: Data, to fd: Int32, display: String) throws {
    try data.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let n = Foundation.write(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { throw FileError.write(path: display, message: Folder.reason(errno)) }
        offset += n
      }
    }
  }

  /// Takes from the file's mode (the umask's default) every permission `limit` does not have.
  private static func limitMode(_ fd: Int32, to limit: mode_t, display: String) throws {
    guard limit & 0o777 != 0o777 else { return }
    var info = stat()
    guard fstat(fd, &info) == 0, fchmod(fd, info.st_mode & 0o777 & limit) == 0 else {
      throw FileError.write(path: display, message: Folder.reason(errno))
    }
  }
}

extension StagedFile {
  /// Renames this one file into place, under its registry's lock (see `TemporaryFiles.commit`).
  package func commit(protecting protected: Set<FileIdentity> = []) throws {
    let registry = self.registry ?? TemporaryFiles()
    if let error = registry.commit([self], protecting: protected, record: { _ in true }) { throw error }
  }
}
