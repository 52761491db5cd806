import Foundation
import StampTestFolders
import Testing

@testable import StampManifest

/// `ManifestFile`: a manifest is read only from a regular file, refused up front otherwise (a FIFO used to hang the
/// second pass over a JSON Lines manifest, a device never ends).
struct ManifestFileTests {
  @Test func aFIFOManifestIsRefusedAtOnceInEitherFormat() throws {
    let folder = try TestFolder("stampmanifest")
    defer { folder.remove() }
    for name in ["m.json", "m.jsonl"] {
      let url = folder.url.appendingPathComponent(name)
      #expect(mkfifo(url.path, 0o600) == 0)
      // No writer ever opens the FIFO: reading it would block forever.
      #expect(
        ManifestDecoder().validate(contentsOf: url).map(\.message) == ["cannot read the file (not a regular file)"])
      var lines = ManifestDecoder().jobs(inLinesAt: url).makeIterator()
      guard case .failure(let error)? = lines.next()?.result else {
        Issue.record("a FIFO read as JSON Lines gave no error")
        continue
      }
      #expect(error.description.contains("not a regular file"))
    }
  }

  @Test func aDeviceOrFolderIsNotAManifest() throws {
    let folder = try TestFolder("stampmanifest")
    defer { folder.remove() }
    let link = folder.url.appendingPathComponent("zero.jsonl")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/zero")
    for path in ["/dev/zero", link.path] {
      let (input, reason) = ManifestFile.open(path)
      #expect(input == nil)
      #expect(reason == "not a regular file")
    }
    #expect(ManifestFile.open(folder.url.path).1 == "is a directory")
  }
}
