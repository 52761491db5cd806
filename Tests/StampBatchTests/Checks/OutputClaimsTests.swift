import Foundation
import StampFiles
import StampManifest
import StampRender
import StampSystem
import StampTestFolders
import StampTestSupport
import Testing

@testable import StampBatch

@Suite("Output claims: files compared as files")
struct OutputClaimsTests {
  /// Files not yet written are the real path of their deepest existing folder plus the rest: a name through a
  /// linked folder and a name with `..` lead to the same identity as the plain one.
  @Test func namesOfOneFileThatDoesNotExistYetAgree() throws {
    let w = try TestFolder()
    defer { w.remove() }
    try FileManager.default.createDirectory(atPath: w.path("d1"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: w.path("d2"), withDestinationPath: "d1")
    let plain = OutputClaims.identity(of: w.path("d1/new/x.png"))
    #expect(OutputClaims.identity(of: w.path("d2/new/x.png")) == plain)
    #expect(OutputClaims.identity(of: w.path("d1/new/../new/./x.png")) == plain)
    #expect(OutputClaims.identity(of: w.path("d1/new/y.png")) != plain)
  }

  /// An existing file is its device and inode: a hard link to an input is that input.
  @Test func aHardLinkIsTheSameFile() throws {
    let w = try TestFolder()
    defer { w.remove() }
    try w.write("photo.ppm", "x")
    try FileManager.default.createDirectory(atPath: w.path("out"), withIntermediateDirectories: true)
    try FileManager.default.linkItem(atPath: w.path("photo.ppm"), toPath: w.path("out/a.png"))
    let claims = try OutputClaims(out: w.path("out"), manifest: w.path("m.json"), file: "m.json", report: nil)
    #expect(
      claims.add(JobEntry(id: "r", base: w.path("photo.ppm"), output: "other.png", index: 0), overlayForEveryJob: false)
        .isEmpty)
    let found = claims.add(
      JobEntry(id: "w", base: w.path("photo.ppm"), output: "a.png", index: 1, line: 7), overlayForEveryJob: false)
    #expect(found.map(\.path) == ["jobs[1].output"])
    #expect(found.first?.line == 7)
    #expect(
      found.first?.message
        == #"jobs[1].output of job "w" would overwrite jobs[0].base of job "r": they are the same file"#)
    #expect(claims.protected == [try #require(FileIdentity(path: w.path("photo.ppm")))])
  }

  /// A job whose second output cannot be put in place leaves neither: its first output is not renamed either.
  @Test func aJobsOutputsAppearTogetherOrNotAtAll() throws {
    let w = try TestFolder()
    defer { w.remove() }
    try w.ppm("photo.ppm", width: 8, height: 8, rgb: [1, 2, 3])
    // A folder where the overlay should go: its temporary is written, but it cannot replace a folder.
    try FileManager.default.createDirectory(atPath: w.path("out/a.overlay.png"), withIntermediateDirectories: true)
    try w.write(
      "m.json", #"{"version": 1, "jobs": [{"id": "a", "base": "photo.ppm", "output": "a.png", "overlay": true}]}"#)
    let outcomes = try BatchRunner(options: BatchOptions(outputFolder: w.path("out"))).run(try w.jobs("m.json"))
    #expect(outcomes.first?.status == .failed)
    #expect(outcomes.first?.error?.contains("a.overlay.png: cannot write: is a folder") == true)
    #expect(w.files("out").isEmpty)
  }
}
