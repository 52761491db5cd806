import Foundation
import StampTestFolders
import Testing

@testable import StampSystem

/// `FileDescriptor`: an owned descriptor, closed once, whose calls retry when interrupted.
struct FileDescriptorTests {
  /// True when `fd` is an open descriptor of this process.
  static func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) != -1 }

  @Test func theDescriptorIsClosedWhenItsOwnerGoesAndAfterCloseAfter() throws {
    let folder = try TestFolder("stampsystem")
    defer { folder.remove() }
    try folder.write("a.txt", "abc")
    var number: Int32 = -1
    do {
      let file = try FileDescriptor.open(folder.path("a.txt"), O_RDONLY)
      number = file.rawValue
      #expect(Self.isOpen(number))
    }
    #expect(!Self.isOpen(number))
    let file = try FileDescriptor.open(folder.path("a.txt"), O_RDONLY)
    number = file.rawValue
    let size = try file.closeAfter { try $0.status().size }
    #expect(size == 3)
    #expect(!Self.isOpen(number))
  }

  @Test func aWriteInterruptedBySignalsIsRetriedAndWritesEveryByte() throws {
    let folder = try TestFolder("stampsystem")
    defer { folder.remove() }
    let file = try FileDescriptor.open(folder.path("out.txt"), O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
    let plan = FaultPlan([SystemFault(.write, .interrupted, count: 3)])
    try plan.run { () throws(Errno) in try file.writeAll(Array("hello".utf8)[...]) }
    try file.close()
    #expect(plan.injected == [.write, .write, .write])
    #expect(try String(contentsOfFile: folder.path("out.txt"), encoding: .utf8) == "hello")
  }

  @Test func aReadAtAnOffsetLeavesTheFilesOwnOffset() throws {
    let folder = try TestFolder("stampsystem")
    defer { folder.remove() }
    try folder.write("a.txt", "abcdef")
    let file = try FileDescriptor.open(folder.path("a.txt"), O_RDONLY)
    var bytes = [UInt8](repeating: 0, count: 3)
    #expect(try file.read(into: &bytes, from: 0, at: 3) == 3)
    #expect(bytes == Array("def".utf8))
    #expect(try file.read(into: &bytes, from: 1) == 2)
    #expect(bytes == Array("dab".utf8))
  }

  @Test func aFoldersEntriesAreListedWithTheirKindsAndWithoutDots() throws {
    let folder = try TestFolder("stampsystem")
    defer { folder.remove() }
    try folder.write("a.txt", "abc")
    try FileManager.default.createDirectory(atPath: folder.path("sub"), withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(atPath: folder.path("link"), withDestinationPath: "a.txt")
    let open = try FileDescriptor.open(folder.path(""), O_RDONLY | O_DIRECTORY)
    var seen: [String: FileStatus.Kind] = [:]
    try open.forEachEntry { name, kind in
      let text = String(decoding: name, as: UTF8.self)
      seen[text] = kind ?? (try? open.status(ofEntry: text))?.kind
    }
    #expect(seen == ["a.txt": .regular, "sub": .folder, "link": .symbolicLink])
  }
}
