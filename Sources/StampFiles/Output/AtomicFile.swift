import Foundation
import StampSystem

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
  package static func write(to path: String, _ fill: (borrowing FileDescriptor) throws -> Void) throws {
    // A registry of its own: the file is committed at once, and no run's signal handling is waiting on it.
    try stage(try OutputTarget(path: path), registry: TemporaryFiles(), fill).commit()
  }

  /// Creates the temporary file for `target`, registered in `registry` (whose `removeAll` a signal calls) until it is
  /// committed or discarded, lets `fill` write it through its descriptor (lent: the stage closes it) and flushes it
  /// to disk; on any failure it is removed. The caller commits or discards the result.
  package static func stage(
    _ target: OutputTarget, registry: TemporaryFiles, _ fill: (borrowing FileDescriptor) throws -> Void
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
    _ target: OutputTarget, registry: TemporaryFiles?, flushing: Bool, _ fill: (borrowing FileDescriptor) throws -> Void
  ) throws -> StagedFile {
    // Created no more open than it may end: a file another user could open for writing before `limitMode` ran would
    // stay open to them after it.
    let mode = 0o666 & target.modeLimit
    let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW
    var temporary = TemporaryName.make(for: target.name)
    let file: FileDescriptor
    do throws(Errno) {
      do throws(Errno) {
        file = try target.folder.descriptor.open(entry: temporary, flags, mode: mode)
      } catch  where error == .exists {
        temporary = TemporaryName.make(for: target.name)
        file = try target.folder.descriptor.open(entry: temporary, flags, mode: mode)
      }
    } catch {
      throw FileError.write(path: target.display, message: Folder.reason(error.rawValue))
    }
    let staged = StagedFile(target: target, temporary: temporary, registry: registry)
    registry?.add(staged)
    do {
      try file.closeAfter { file in
        try fill(file)
        try limitMode(file, to: target.modeLimit, display: target.display)
        guard flushing else { return }
        do throws(Errno) {
          try file.sync()
        } catch {
          throw FileError.write(path: target.display, message: Folder.reason(error.rawValue))
        }
      }
    } catch {
      try? target.folder.descriptor.remove(entry: temporary)
      registry?.remove(staged)
      throw error
    }
    return staged
  }

  /// Writes all of `data` to `file`.
  private static func write(_ data: Data, to file: borrowing FileDescriptor, display: String) throws {
    let failure = data.withUnsafeBytes { bytes -> Errno? in
      do throws(Errno) {
        try file.writeAll(bytes)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw FileError.write(path: display, message: Folder.reason(failure.rawValue)) }
  }

  /// Takes from the file's mode (the umask's default) every permission `limit` does not have.
  private static func limitMode(_ file: borrowing FileDescriptor, to limit: mode_t, display: String) throws {
    guard limit & 0o777 != 0o777 else { return }
    do throws(Errno) {
      try file.setPermissions(try file.status().permissions & 0o777 & limit)
    } catch {
      throw FileError.write(path: display, message: Folder.reason(error.rawValue))
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
