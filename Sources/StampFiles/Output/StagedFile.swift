import Foundation

/// A complete output waiting under its temporary name, flushed to disk, for `commit` to rename it into place.
package final class StagedFile: Sendable {
  let target: OutputTarget
  /// The temporary name in the target's folder.
  let temporary: String
  /// The registry the temporary file is in until it is committed or discarded (which take it out again); nil for a
  /// file never registered (`AtomicFile.writeUnregistered`).
  let registry: TemporaryFiles?

  init(target: OutputTarget, temporary: String, registry: TemporaryFiles?) {
    self.target = target
    self.temporary = temporary
    self.registry = registry
  }

  /// The output as the user named it.
  package var display: String { target.display }

  /// Removes the temporary file.
  package func discard() {
    unlinkat(target.folder.descriptor, temporary, 0)
    registry?.remove(self)
  }

  /// Renames `files` over their targets, all or none: first every target is checked (not a symbolic link, not a
  /// folder, none of `protected`), then they are renamed; should a rename still fail, those already renamed are
  /// removed again. The temporaries are gone afterwards either way; each folder is flushed after its renames when
  /// `flushing`. Called with the registry's lock held (see `TemporaryFiles.commit`).
  static func renameAll(_ files: [StagedFile], protecting protected: Set<FileIdentity>, flushing: Bool = true) throws {
    do {
      for file in files { try file.checkTarget(protected) }
    } catch {
      for file in files { file.discardLocked() }
      throw error
    }
    var renamed: [StagedFile] = []
    for (k, file) in files.enumerated() {
      let folder = file.target.folder.descriptor
      guard renameat(folder, file.temporary, folder, file.target.name) == 0 else {
        let message = Folder.reason(errno)
        for done in renamed { unlinkat(done.target.folder.descriptor, done.target.name, 0) }
        for rest in files[k...] { rest.discardLocked() }
        throw FileError.write(path: file.display, message: message)
      }
      renamed.append(file)
    }
    var synced = Set<ObjectIdentifier>()
    for file in files where flushing && synced.insert(ObjectIdentifier(file.target.folder)).inserted {
      try file.target.folder.sync()
    }
  }

  private func checkTarget(_ protected: Set<FileIdentity>) throws {
    let folder = target.folder.descriptor
    var info = stat()
    guard fstatat(folder, target.name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return }
    switch info.st_mode & S_IFMT {
    case S_IFLNK: throw FileError.write(path: display, message: "is a symbolic link; not replacing it")
    case S_IFDIR: throw FileError.write(path: display, message: "is a folder")
    default: break
    }
    if protected.contains(FileIdentity(info)) {
      throw FileError.write(path: display, message: "would overwrite an input file; not replacing it")
    }
  }

  /// `discard` for a caller that holds the registry's lock.
  fileprivate func discardLocked() {
    unlinkat(target.folder.descriptor, temporary, 0)
  }
}
