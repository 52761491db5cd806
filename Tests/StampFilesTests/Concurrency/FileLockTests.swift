import Foundation
import StampTestFolders
import Testing

@testable import StampFiles

@Suite("Small files and locks of a folder held open")
struct FileLockTests {
  /// A claim holds until released, against a second claim of the same process (flock locks belong to open files,
  /// not processes); the release removes the lock file, and the name can be claimed again.
  @Test func aClaimHoldsUntilReleasedAndLeavesNoFile() throws {
    let w = try TestFolder()
    defer { w.remove() }
    let folder = try Folder.open(path: w.url.path)
    let first = try FileLock.claim("a.lock", in: folder)
    #expect(throws: FileLock.Refusal.held) { try FileLock.claim("a.lock", in: folder) }
    #expect(FileManager.default.fileExists(atPath: w.path("a.lock")))
    var info = stat()
    #expect(stat(w.path("a.lock"), &info) == 0 && info.st_mode & 0o777 == 0o600)
    first.release()
    #expect(!FileManager.default.fileExists(atPath: w.path("a.lock")))
    try FileLock.claim("a.lock", in: folder).release()
  }

  /// A lock file planted as a symbolic link is never followed (nothing is made at its target).
  @Test func aLinkInPlaceOfTheLockFileIsRefused() throws {
    let w = try TestFolder()
    defer { w.remove() }
    try FileManager.default.createSymbolicLink(atPath: w.path("a.lock"), withDestinationPath: w.path("victim"))
    #expect(throws: FileLock.Refusal.failed("is a symbolic link")) {
      try FileLock.claim("a.lock", in: try Folder.open(path: w.url.path))
    }
    #expect(!FileManager.default.fileExists(atPath: w.path("victim")))
  }

  /// `read` returns a small file's bytes (up to its limit exactly), nil for none, and refuses unread a link, a FIFO
  /// and a file past its limit, told from its size: a 1 GiB sparse file is refused at once.
  @Test func smallFilesAreReadBoundedAndOthersRefusedUnread() throws {
    let w = try TestFolder()
    defer { w.remove() }
    try w.write("four", "abcd")
    try FileManager.default.createSymbolicLink(atPath: w.path("link"), withDestinationPath: w.path("four"))
    #expect(mkfifo(w.path("fifo"), 0o600) == 0)
    let fd = open(w.path("huge"), O_WRONLY | O_CREAT, 0o600)
    #expect(fd >= 0 && ftruncate(fd, 1 << 30) == 0)
    close(fd)
    let folder = try Folder.open(path: w.url.path)
    #expect(try folder.read("four", limit: 4) == Array("abcd".utf8))
    #expect(try folder.read("absent", limit: 4) == nil)
    #expect(throws: Folder.ReadRefusal.tooLarge(name: "four", size: 4, limit: 3)) { try folder.read("four", limit: 3) }
    #expect(throws: Folder.ReadRefusal.notAFile(name: "link", what: "is a symbolic link")) {
      try folder.read("link", limit: 4)
    }
    #expect(throws: Folder.ReadRefusal.notAFile(name: "fifo", what: "is a FIFO")) { try folder.read("fifo", limit: 4) }
    let start = Date()
    #expect(throws: Folder.ReadRefusal.tooLarge(name: "huge", size: 1 << 30, limit: 4096)) {
      try folder.read("huge", limit: 4096)
    }
    #expect(Date().timeIntervalSince(start) < 1)
  }
}
