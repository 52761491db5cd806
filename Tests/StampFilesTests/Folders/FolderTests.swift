import Foundation
import StampSystem
import StampTestFolders
import Testing

@testable import StampFiles

@Suite("Folders held open: writing through a descriptor")
struct FolderTests {
  /// A folder swapped for a symbolic link after it was opened: the file is still written into the folder that was
  /// opened (now under its new name), nothing through the link.
  @Test func writesLandInTheFolderOpenedWhateverItsPathBecomes() throws {
    let w = try TestFolder()
    defer { w.remove() }
    try FileManager.default.createDirectory(atPath: w.path("out/sub"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: w.path("elsewhere"), withIntermediateDirectories: true)
    let sub = try Folder.open(path: w.path("out")).child("sub", creating: false)
    try FileManager.default.moveItem(atPath: w.path("out/sub"), toPath: w.path("out/moved"))
    try FileManager.default.createSymbolicLink(atPath: w.path("out/sub"), withDestinationPath: w.path("elsewhere"))
    let staged = try AtomicFile.stage(
      OutputTarget(folder: sub, name: "x.txt", display: "sub/x.txt"), registry: TemporaryFiles()
    ) { fd in
      #expect(Foundation.write(fd.rawValue, "hello", 5) == 5)
    }
    try staged.commit()
    #expect(try String(contentsOfFile: w.path("out/moved/x.txt"), encoding: .utf8) == "hello")
    #expect(try FileManager.default.contentsOfDirectory(atPath: w.path("elsewhere")).isEmpty)
    #expect(w.files("out") == ["moved/x.txt"])
  }

  /// A subfolder that is a symbolic link is never opened, nor is one made through it.
  @Test func aLinkedSubfolderIsRefused() throws {
    let w = try TestFolder()
    defer { w.remove() }
    try FileManager.default.createDirectory(atPath: w.path("out"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: w.path("elsewhere"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: w.path("out/link"), withDestinationPath: w.path("elsewhere"))
    let out = try Folder.open(path: w.path("out"))
    #expect(throws: Folder.Failure(name: "link", reason: .symbolicLink)) {
      try out.child("link", creating: true)
    }
    #expect(throws: Folder.Failure.self) { try out.child("..", creating: true) }
  }

  /// A folder that cannot be opened says why as a value callers decide by, and in the words the user reads.
  @Test func aFailureCarriesItsReasonAsAValue() throws {
    let w = try TestFolder()
    defer { w.remove() }
    _ = try w.write("out/file.txt", "x")
    let out = try Folder.open(path: w.path("out"))
    #expect(throws: Folder.Failure(name: "..", reason: .notAPlainName)) { try out.child("..", creating: true) }
    #expect(throws: Folder.Failure(name: "file.txt", reason: .notAFolder)) { try out.child("file.txt", creating: true) }
    #expect(throws: Folder.Failure(name: "none", reason: .missing)) { try out.child("none", creating: false) }
    let words: [(Folder.Reason, String)] = [
      (.missing, "no such file or folder"), (.notAFolder, "is not a folder"), (.symbolicLink, "is a symbolic link"),
      (.danglingLink, "a symbolic link to nothing"), (.notAPlainName, "is not a plain folder name"),
      (.system(EACCES), "permission denied"),
    ]
    for (reason, text) in words {
      #expect("\(Folder.Failure(name: "a/b", reason: reason))" == "a/b: " + text)
    }
    #expect(Folder.Reason(errno: ELOOP) == .symbolicLink && Folder.Reason(errno: EIO) == .system(EIO))
  }

  /// A target that became a symbolic link, a folder or an input before the rename is not replaced, and the job's
  /// temporaries are gone.
  @Test func commitNeverReplacesALinkOrAProtectedFile() throws {
    let w = try TestFolder()
    defer { w.remove() }
    try w.write("photo.txt", "input")
    let folder = try Folder.open(path: w.url.path)
    try FileManager.default.createSymbolicLink(atPath: w.path("link.txt"), withDestinationPath: w.path("photo.txt"))
    try FileManager.default.linkItem(atPath: w.path("photo.txt"), toPath: w.path("hard.txt"))
    let protected = try #require(FileIdentity(path: w.path("photo.txt")))
    for name in ["link.txt", "hard.txt"] {
      let staged = try AtomicFile.stage(
        OutputTarget(folder: folder, name: name, display: name), registry: TemporaryFiles()
      ) { _ in }
      #expect(throws: FileError.self) { try staged.commit(protecting: [protected]) }
    }
    #expect(try String(contentsOfFile: w.path("photo.txt"), encoding: .utf8) == "input")
    #expect(w.files("") == ["hard.txt", "link.txt", "photo.txt"])
  }
}
