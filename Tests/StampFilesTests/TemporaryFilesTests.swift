import Dispatch
import Foundation
import StampTestFolders
import Testing

@testable import StampFiles

@Suite("Temporary files: always removed, committed with their record", .serialized)
struct TemporaryFilesTests {
  func stage(_ folder: Folder, _ name: String) throws -> StagedFile {
    try AtomicFile.stage(OutputTarget(folder: folder, name: name, display: name)) { fd in
      #expect(Foundation.write(fd, "data", 4) == 4)
    }
  }

  /// A record that fails (a report that cannot be written) takes the outputs it could not list away again.
  @Test func outputsTheRecordCouldNotListAreRemoved() throws {
    let w = try TestFolder()
    defer { w.remove() }
    let folder = try Folder.open(path: w.url.path)
    let staged = [try stage(folder, "a.txt"), try stage(folder, "b.txt")]
    var seen: [String?] = []
    let error = TemporaryFiles().commit(staged, protecting: []) { error in
      seen.append(error.map { "\($0)" })
      return false
    }
    #expect(error == nil && seen == [nil])
    #expect(w.files("").isEmpty)
  }

  /// Exiting at once (a second Ctrl-C) removes the temporaries in progress, but waits for a commit under way:
  /// that job's outputs and its record stay together.
  @Test func removeAllWaitsForACommitAndRemovesTheRest() throws {
    let w = try TestFolder()
    defer { w.remove() }
    let folder = try Folder.open(path: w.url.path)
    // A registry of its own: the shared one holds the files of the tests running alongside.
    let registry = TemporaryFiles()
    let pending = try stage(folder, "pending.txt")
    let committing = try stage(folder, "done.txt")
    registry.add(pending)
    registry.add(committing)
    let (entered, release, finished) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchGroup())
    let recorded = Locked(false)
    let recordedWhenRemoved = Locked<Bool?>(nil)
    DispatchQueue.global().async(group: finished) {
      let error = registry.commit([committing], protecting: []) { _ in
        entered.signal()
        release.wait()
        recorded.withLock { $0 = true }
        return true
      }
      #expect(error == nil)
    }
    entered.wait()
    DispatchQueue.global().async(group: finished) {
      registry.removeAll()
      // The process would exit here: the commit under way must have been recorded already.
      recordedWhenRemoved.withLock { $0 = recorded.withLock { $0 } }
    }
    usleep(20_000)
    release.signal()
    finished.wait()
    #expect(recordedWhenRemoved.withLock { $0 } == true)
    #expect(w.files("") == ["done.txt"])
    TemporaryFiles.shared.discard([pending])
  }
}
