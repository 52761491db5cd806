import Foundation
import StampTestFolders
import Testing

@testable import StampManifest

/// `PhotoWalk`: depth first in byte order, links never entered, every matching entry yielded, failures in their place.
struct PhotoWalkTests {
  /// Everything the walk of `pattern` under `folder` yields: photos' paths, and failures as "! description".
  private func walk(_ pattern: String, in folder: String) throws -> [String] {
    PhotoWalk(try PhotoGlob(pattern), in: folder).map { result in
      switch result {
      case .success(let path): return path
      case .failure(let failure): return "! \(failure)"
      }
    }
  }

  private func make(_ folder: TestFolder, files: [String]) throws {
    for file in files { try folder.write(file, "x") }
  }

  @Test func entriesComeInByteOrderWithASubFoldersPhotosAtItsPlace() throws {
    let folder = try TestFolder("photowalk")
    defer { folder.remove() }
    try make(folder, files: ["a/x.jpg", "a.jpg", "B.jpg", "b.jpg"])
    // "B" is 0x42, before "a" (0x61); the folder "a" sorts before "a.jpg", a shorter name before one it begins.
    #expect(try walk("**/*.jpg", in: folder.url.path) == ["B.jpg", "a/x.jpg", "a.jpg", "b.jpg"])
  }

  @Test func nestedFoldersUnderALiteralRoot() throws {
    let folder = try TestFolder("photowalk")
    defer { folder.remove() }
    try make(
      folder,
      files: [
        "in/2024/a.jpg", "in/2024/m/d/e.jpg", "in/2024/m/d/f/g/h.jpg", "in/2024/m/z.jpg", "in/2024/m/d.png",
        "in/2023/x.jpg", "in/2024/.hidden/h.jpg", "in/2024/.h.jpg", "in/top.jpg",
      ])
    #expect(
      try walk("in/2024/**/*.jpg", in: folder.url.path) == ["a.jpg", "m/d/e.jpg", "m/d/f/g/h.jpg", "m/z.jpg"])
    #expect(try walk("in/*/m/*.jpg", in: folder.url.path) == ["2024/m/z.jpg"])
    #expect(try walk("in/2024/.hidden/*.jpg", in: folder.url.path) == ["h.jpg"])
  }

  @Test func aRelativeFolderAndAnAbsolutePattern() throws {
    let folder = try TestFolder("photowalk")
    defer { folder.remove() }
    try make(folder, files: ["in/a.jpg", "in/b.jpg"])
    #expect(try walk(folder.path("in") + "/*.jpg", in: "not-this-folder") == ["a.jpg", "b.jpg"])
    #expect(PhotoWalk.join("", "") == ".")
    #expect(PhotoWalk.join("", "in") == "in")
    #expect(PhotoWalk.join("m", "") == "m")
    #expect(PhotoWalk.join("m/", "in") == "m/in")
    #expect(PhotoWalk.join("m", "/data") == "/data")
  }

  @Test func linksAreYieldedByNameButNeverEntered() throws {
    let folder = try TestFolder("photowalk")
    defer { folder.remove() }
    try make(folder, files: ["real/x.jpg"])
    let files = FileManager.default
    try files.createSymbolicLink(atPath: folder.path("alias"), withDestinationPath: "real")
    try files.createSymbolicLink(atPath: folder.path("dir.jpg"), withDestinationPath: "real")
    try files.createSymbolicLink(atPath: folder.path("photo.jpg"), withDestinationPath: "real/x.jpg")
    try files.createSymbolicLink(atPath: folder.path("gone.jpg"), withDestinationPath: "nowhere")
    // "alias/x.jpg" and "dir.jpg/x.jpg" would be there if a link were followed.
    #expect(try walk("**/*.jpg", in: folder.url.path) == ["dir.jpg", "gone.jpg", "photo.jpg", "real/x.jpg"])
  }

  @Test func fifosAndFoldersNamedLikePhotosAreYielded() throws {
    let folder = try TestFolder("photowalk")
    defer { folder.remove() }
    try make(folder, files: ["f.jpg/g.jpg", "f.jpg/h.png"])
    #expect(mkfifo(folder.path("p.jpg"), 0o600) == 0)
    // The FIFO is never opened: a walk that did would block here.
    #expect(try walk("**/*.jpg", in: folder.url.path) == ["f.jpg", "f.jpg/g.jpg", "p.jpg"])
    #expect(try walk("*.jpg", in: folder.url.path) == ["f.jpg", "p.jpg"])
  }

  @Test func aFolderThePatternCannotMatchIsNeverEntered() throws {
    let glob = try PhotoGlob("a/*.jpg")
    let steps = Array("b".utf8).withUnsafeBufferPointer { glob.step(glob.start, name: $0) }
    #expect(steps.isEmpty)
    let deep = try PhotoGlob("a/*/x.jpg")
    let inner = Array("b".utf8).withUnsafeBufferPointer { deep.step(deep.start, name: $0) }
    #expect(inner == [1])
  }

  @Test(.enabled(if: geteuid() != 0, "chmod 000 does not stop root from reading a folder"))
  func anUnreadableFolderIsOneFailureInItsPlace() throws {
    let folder = try TestFolder("photowalk")
    defer {
      chmod(folder.path("b"), 0o755)
      folder.remove()
    }
    try make(folder, files: ["a.jpg", "b/x.jpg", "c.jpg"])
    #expect(chmod(folder.path("b"), 0) == 0)
    let failure = "! \(folder.path("b")): permission denied"
    #expect(try walk("**/*.jpg", in: folder.url.path) == ["a.jpg", failure, "c.jpg"])
    // "*.jpg" never reads "b".
    #expect(try walk("*.jpg", in: folder.url.path) == ["a.jpg", "c.jpg"])
  }

  @Test func aNameThatIsNotUTF8IsAFailureOfItsFolderAndTheWalkGoesOn() throws {
    let folder = try TestFolder("photowalk")
    defer { folder.remove() }
    try make(folder, files: ["a.jpg", "z.jpg"])
    let name = (Array(folder.url.path.utf8) + [UInt8(ascii: "/"), 0xFF, UInt8(ascii: "."), UInt8(ascii: "j"), 0])
      .map { CChar(bitPattern: $0) }
    let fd = open(name, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
    // Some file systems refuse a name that is not UTF-8; there is nothing to walk then.
    guard fd >= 0 else { return }
    close(fd)
    let root = folder.url.path
    #expect(try walk("*.j*", in: root) == ["a.jpg", "z.jpg", "! \(root): a name that is not UTF-8 (\u{FFFD}.j)"])
  }

  @Test func aMissingRootIsOneFailureThenTheEnd() throws {
    let folder = try TestFolder("photowalk")
    defer { folder.remove() }
    var walk = PhotoWalk(try PhotoGlob("missing/**/*.jpg"), in: folder.url.path)
    let failure = PhotoWalk.Failure(folder: folder.path("missing"), reason: "no such file or directory")
    #expect(walk.next() == .failure(failure))
    #expect(walk.next() == nil)
    #expect(walk.next() == nil)
    #expect(failure.description == "\(folder.path("missing")): no such file or directory")
  }

  @Test func aRootThatIsAFileIsOneFailureNamingIt() throws {
    let folder = try TestFolder("photowalk")
    defer { folder.remove() }
    try make(folder, files: ["f/x.jpg", "g"])
    #expect(try walk("g/*.jpg", in: folder.url.path) == ["! \(folder.path("g")): not a directory"])
  }

  @Test func twentyThousandPhotosComeSorted() throws {
    let folder = try TestFolder("photowalk")
    defer { folder.remove() }
    var names: [String] = []
    for index in 0..<20_000 {
      let name = "p\(index).jpg"
      names.append(name)
      let fd = open(folder.path(name), O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
      try #require(fd >= 0)
      close(fd)
    }
    try make(folder, files: ["other.png"])
    let found = try walk("*.jpg", in: folder.url.path)
    #expect(found.count == 20_000)
    #expect(found.prefix(4) == ["p0.jpg", "p1.jpg", "p10.jpg", "p100.jpg"])
    #expect(found.last == "p9999.jpg")
    #expect(found == names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
  }
}
