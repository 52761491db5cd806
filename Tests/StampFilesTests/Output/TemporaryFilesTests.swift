import Dispatch
import Foundation
import StampTestFolders
import Testing

@testable import StampFiles

@Suite("Temporary files: always removed, committed with their record")
struct TemporaryFilesTests {
  func stage(_ folder: Folder, _ name: String, in registry: TemporaryFiles = TemporaryFiles()) throws -> StagedFile {
    try AtomicFile.stage(OutputTarget(folder: folder, name: name, display: name), registry: registry) { fd in
      #expect(Foundation.write(fd.rawValue, "data", 4) == 4)
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
    let registry = TemporaryFiles()
    _ = try stage(folder, "pending.txt", in: registry)
    let committing = try stage(folder, "done.txt", in: registry)
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
    #expect(registry.inProgress.isEmpty)
  }

  /// Two runs in one process keep two registries: one's cleanup (a signal) removes its own temporaries and leaves
  /// the other's, which that run still commits.
  @Test func oneRegistrysCleanupLeavesTheOthersTemporaries() throws {
    let w = try TestFolder()
    defer { w.remove() }
    let folder = try Folder.open(path: w.url.path)
    let (first, second) = (TemporaryFiles(), TemporaryFiles())
    let mine = try stage(folder, "mine.txt", in: first)
    let theirs = try stage(folder, "theirs.txt", in: second)
    #expect(first.inProgress == ["mine.txt"] && second.inProgress == ["theirs.txt"])
    first.removeAll()
    #expect(first.inProgress.isEmpty && second.inProgress == ["theirs.txt"])
    // Only `theirs`' temporary is left (a dot name, then `.stampcam-`), and it commits.
    let left = try FileManager.default.contentsOfDirectory(atPath: w.url.path)
    #expect(left.count == 1 && left.allSatisfy { $0.hasPrefix(".theirs.txt.stampcam-") }, "\(left)")
    #expect(second.commit([theirs], protecting: []) { _ in true } == nil)
    #expect(w.files("") == ["theirs.txt"])
    _ = mine
  }
}
