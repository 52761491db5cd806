import Foundation
import StampTestFolders
import Testing

@testable import StampBatch
@testable import StampManifest

/// `PhotoSpool`: render's second pass renders the photos its check found, whatever the folder holds by then.
struct PhotoSpoolTests {
  private func relatives(_ source: any PhotoSource) -> [String] {
    var found: [String] = []
    while let item = source.next() {
      if case .success(let photo) = item { found.append(photo.relative) }
    }
    return found
  }

  @Test func theSecondPassReadsTheListTheFirstFoundNotTheFolderAsItIsNow() throws {
    let folder = try TestFolder("spool")
    defer { folder.remove() }
    for name in ["in/a.jpg", "in/b.jpg", "other/x.jpg"] { try folder.write(name, "x") }
    let spool = try PhotoSpool(in: folder.url.path)
    let first = PhotoSet(.glob("in/*.jpg", ignoreCase: false), folder: folder.url.path)
    let second = PhotoSet(.glob("other/*.jpg", ignoreCase: false), folder: folder.url.path)
    #expect(relatives(spool.recording(try first.photos().get())) == ["a.jpg", "b.jpg"])
    #expect(relatives(spool.recording(try second.photos().get())) == ["x.jpg"])
    // Added and removed after the check: the render pass does not see it.
    try folder.write("in/c.jpg", "x")
    try FileManager.default.removeItem(atPath: folder.path("in/a.jpg"))
    spool.rewind()
    let again = try spool.nextJob().get()
    var paths: [String] = []
    while let item = again.next() { paths.append(try item.get().path) }
    #expect(paths == [folder.url.path + "/in/a.jpg", folder.url.path + "/in/b.jpg"])
    #expect(relatives(try spool.nextJob().get()) == ["x.jpg"])
    #expect(spool.failure == nil)
    // The spool's file was removed from its folder when it was made.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["in", "other"])
  }

  @Test func manyPhotosWithOddNamesComeBackAsTheyWent() throws {
    let folder = try TestFolder("spool")
    defer { folder.remove() }
    let spool = try PhotoSpool(in: folder.url.path)
    let names = (0..<20_000).map { "d\($0 % 7)/p \($0)\n\\é.jpg" }
    #expect(relatives(spool.recording(NamedPhotos(names))) == names)
    spool.rewind()
    #expect(relatives(try spool.nextJob().get()) == names)
  }
}
