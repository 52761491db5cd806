import Foundation
import StampTestFolders
import Testing

@testable import StampSystem

/// `FileStatus` and the file's version it gives: what `stat` says, in the terms stampcam decides by.
struct FileStatusTests {
  /// A fresh folder holding `a.txt` ("abc") and `link`, a symbolic link to it; removed by the caller.
  static func folderWithALink() throws -> TestFolder {
    let folder = try TestFolder("stampsystem")
    try folder.write("a.txt", "abc")
    try FileManager.default.createSymbolicLink(atPath: folder.path("link"), withDestinationPath: "a.txt")
    return folder
  }

  @Test func aRewriteOfTheSameSizeIsAnotherVersionAndARenameAnotherIdentity() throws {
    let folder = try Self.folderWithALink()
    defer { folder.remove() }
    let first = try #require(FileVersion(path: folder.path("a.txt")))
    #expect(first.size == 3)
    #expect(FileVersion(path: folder.path("link")) == first)
    // The change time moves with any write, whatever the modification time is set back to.
    usleep(20_000)
    try folder.write("a.txt", "xyz")
    let second = try #require(FileVersion(path: folder.path("a.txt")))
    #expect(second.identity == first.identity)
    #expect(second != first)
    try folder.write("b.txt", "xyz")
    #expect(rename(folder.path("b.txt"), folder.path("a.txt")) == 0)
    #expect(FileIdentity(path: folder.path("a.txt")) != first.identity)
  }

  @Test func aLinksOwnStatusIsNotItsTargets() throws {
    let folder = try Self.folderWithALink()
    defer { folder.remove() }
    #expect(try FileStatus(path: folder.path("link")).kind == .regular)
    #expect(try FileStatus(path: folder.path("link"), followingLinks: false).kind == .symbolicLink)
    #expect(throws: Errno.noSuchEntry) { try FileStatus(path: folder.path("missing")) }
  }
}
