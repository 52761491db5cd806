import StampSystem

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
    try? target.folder.descriptor.remove(entry: temporary)
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
      do throws(Errno) {
        try file.target.folder.descriptor.rename(entry: file.temporary, to: file.target.name)
      } catch {
        for done in renamed { try? done.target.folder.descriptor.remove(entry: done.target.name) }
        for rest in files[k...] { rest.discardLocked() }
        throw FileError.write(path: file.display, message: Folder.reason(error.rawValue))
      }
      renamed.append(file)
    }
    var synced = Set<ObjectIdentifier>()
    for file in files where flushing && synced.insert(ObjectIdentifier(file.target.folder)).inserted {
      try file.target.folder.sync()
    }
  }

  private func checkTarget(_ protected: Set<FileIdentity>) throws {
    guard let status = try? target.folder.descriptor.status(ofEntry: target.name) else { return }
    switch status.kind {
    case .symbolicLink: throw FileError.write(path: display, message: "is a symbolic link; not replacing it")
    case .folder: throw FileError.write(path: display, message: "is a folder")
    default: break
    }
    if protected.contains(status.identity) {
      throw FileError.write(path: display, message: "would overwrite an input file; not replacing it")
    }
  }

  /// `discard` for a caller that holds the registry's lock.
  fileprivate func discardLocked() {
    try? target.folder.descriptor.remove(entry: temporary)
  }
}
