import Foundation
import StampSystem

/// The temporary files being written right now, so that an interrupted run can remove them before it exits, and
/// the lock under which finished outputs are renamed into place and recorded (see `commit`). A run makes one and
/// hands it to every job (`JobContext`) and to its signal handling (`Cancellation`); two registries never touch
/// each other's files.
package final class TemporaryFiles: Sendable {

  private let files = Locked([ObjectIdentifier: StagedFile]())
  /// Held by a commit (renames and the report line), so that a process exiting on a signal waits for it.
  private let commitGate = Locked(())

  /// An empty registry.
  package init() {}

  func add(_ file: StagedFile) {
    files.withLock { $0[ObjectIdentifier(file)] = file }
  }

  func remove(_ file: StagedFile) {
    files.withLock { $0[ObjectIdentifier(file)] = nil }
  }

  /// The outputs whose temporary files exist, as the user named them.
  package var inProgress: Set<String> {
    files.withLock { Set($0.values.map(\.display)) }
  }

  /// Renames one job's staged outputs into place together (see `StagedFile.renameAll`), then calls `record` with
  /// nil or the error, all under the lock `removeAll` takes: a run stopped at once keeps either the job's outputs
  /// and whatever `record` wrote about them (its report line), or neither. When `record` returns false (the report
  /// could not be written) the outputs it could not list are removed again. Returns the error, if any.
  @discardableResult
  package func commit(_ staged: [StagedFile], protecting: Set<FileIdentity>, record: (Error?) -> Bool) -> Error? {
    commitGate.withLock { _ in
      var failure: Error?
      do {
        try StagedFile.renameAll(staged, protecting: protecting)
      } catch {
        failure = error
      }
      files.withLock { files in for file in staged { files[ObjectIdentifier(file)] = nil } }
      if !record(failure), failure == nil {
        for file in staged { try? file.target.folder.descriptor.remove(entry: file.target.name) }
      }
      return failure
    }
  }

  /// Removes `staged` files that will not be committed (a job that failed after writing some of its outputs).
  package func discard(_ staged: [StagedFile]) {
    for file in staged { file.discard() }
  }

  /// Deletes every temporary file in progress; for a process about to exit on a signal. Waits for a commit in
  /// progress (a few renames and a report line), but not past two seconds (a report pipe nobody reads).
  package func removeAll() {
    // Mutex has no timed wait: try every 10 ms for 2 s, then remove them anyway (the commit that holds the gate
    // has renamed its own files already; it is stuck writing its report line).
    for _ in 0..<200 {
      if commitGate.withLockIfAvailable({ _ in removeTemporaries() }) != nil { return }
      systemSleep(microseconds: 10_000)
    }
    removeTemporaries()
  }

  private func removeTemporaries() {
    files.withLock { files in
      for file in files.values { try? file.target.folder.descriptor.remove(entry: file.temporary) }
      files.removeAll()
    }
  }

  /// Removes the temporary files that runs now dead left in `folder` (killed before they could clean up): regular
  /// files named by `TemporaryName` whose run is gone (see `TemporaryName.isStale`). Returns the names removed.
  @discardableResult
  package static func removeStale(in folder: Folder) -> [String] {
    remove(in: folder) { name, modified in
      TemporaryName.owner(of: name) != nil && TemporaryName.isStale(name, modified: modified)
    }
  }

  /// Removes the temporary files made for the file `name` (see `TemporaryName`) that runs now dead left in
  /// `folder`, and no other: for a program that writes one file in a folder it does not own (the recorder's
  /// manifest). Returns the names removed.
  @discardableResult
  package static func removeStale(in folder: Folder, madeFor name: String) -> [String] {
    let prefix = "." + name + ".stampcam-"
    return remove(in: folder) { entry, modified in
      entry.hasPrefix(prefix) && entry.dropFirst(prefix.count).split(separator: "-").count == 3
        && TemporaryName.owner(of: entry) != nil && TemporaryName.isStale(entry, modified: modified)
    }
  }

  /// Removes the regular files of `folder` for which `stale` (given the name and the modification time) is true.
  /// Returns the names removed.
  @discardableResult
  package static func remove(in folder: Folder, where stale: (String, time_t) -> Bool) -> [String] {
    // A descriptor of its own, so that reading the entries moves no offset of the folder's.
    guard let listing = try? folder.descriptor.open(entry: ".", O_RDONLY | O_DIRECTORY) else { return [] }
    var removed: [String] = []
    // A listing that fails part way removes what it saw.
    try? listing.forEachEntry { bytes, _ in
      let name = String(decoding: bytes, as: UTF8.self)
      guard let status = try? folder.descriptor.status(ofEntry: name), status.kind == .regular,
        stale(name, time_t(truncatingIfNeeded: status.modifiedSeconds))
      else { return }
      if (try? folder.descriptor.remove(entry: name)) != nil { removed.append(name) }
    }
    return removed
  }
}
