import Foundation
import StampManifest
import StampTestFolders
import StampTestSupport
import Testing

@testable import StampBatch
@testable import StampFiles
@testable import StampRender

@Suite("Output paths: resolved and created through the output folder's descriptor")
struct OutputPathsTests {
  /// `link/newdir/deeper/x.png` with `link` pointing outside --out: refused, and nothing is created out there.
  @Test func noFolderIsCreatedThroughALinkOutside() throws {
    let w = try TestFolder()
    defer { w.remove() }
    try w.ppm("photo.ppm", width: 4, height: 4, rgb: [1, 2, 3])
    try FileManager.default.createDirectory(atPath: w.path("out"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: w.path("elsewhere"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: w.path("out/link"), withDestinationPath: w.path("elsewhere"))
    try w.write(
      "m.json", #"{"version": 1, "jobs": [{"id": "a", "base": "photo.ppm", "output": "link/newdir/deeper/x.png"}]}"#)
    let outcomes = try BatchRunner(options: BatchOptions(outputFolder: w.path("out"))).run(try w.jobs("m.json"))
    #expect(outcomes.first?.status == .failed)
    #expect(outcomes.first?.error?.contains("'link' is a symbolic link") == true)
    #expect(try FileManager.default.contentsOfDirectory(atPath: w.path("elsewhere")).isEmpty)
  }

  /// A folder inside --out swapped for a link to elsewhere after the job resolved its output (the race of a long
  /// job) redirects nothing: the output lands in the folder that was opened, now under its new name.
  @Test func aFolderSwappedForALinkMidJobRedirectsNothing() throws {
    let w = try TestFolder()
    defer { w.remove() }
    try w.ppm("photo.ppm", width: 4, height: 4, rgb: [1, 2, 3])
    try FileManager.default.createDirectory(atPath: w.path("out/sub"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: w.path("elsewhere"), withIntermediateDirectories: true)
    try w.write("m.json", #"{"version": 1, "jobs": [{"id": "a", "base": "photo.ppm", "output": "sub/x.png"}]}"#)
    let runner = try BatchRunner(options: BatchOptions(outputFolder: w.path("out")))
    var renderer = runner.jobRenderer
    let (out, elsewhere) = (w.path("out"), w.path("elsewhere"))
    renderer.afterResolving = {
      _ = rename(out + "/sub", out + "/moved")
      _ = symlink(elsewhere, out + "/sub")
    }
    let outputs = try renderer.render(try #require(try w.jobs("m.json").first))
    #expect(outputs == ["sub/x.png"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    #expect(w.files("out") == ["moved/x.png"])
  }

  /// An output name whose temporary name would not fit in NAME_MAX is refused before anything is written, with
  /// the limit in the message; one at the limit is written.
  @Test func namesLeaveRoomForTheTemporarySuffix() throws {
    let w = try TestFolder()
    defer { w.remove() }
    let paths = try OutputPaths(folder: w.path("out"))
    // NAME_MAX 255 less `.` + `.stampcam-` + 8 hex + `-` + 10 digits + `-` + 8 hex + `.tmp` (43 bytes).
    let longest = String(repeating: "n", count: 212 - 4) + ".png"
    _ = try paths.resolve(longest, job: "a", inputs: [])
    #expect(throws: BatchError.self) { try paths.resolve("n" + longest, job: "a", inputs: []) }
    do {
      _ = try paths.resolve("d/" + String(repeating: "x", count: 236) + ".png", job: "a", inputs: [])
      Issue.record("a 240-byte name was accepted")
    } catch {
      #expect("\(error)".contains("at most 212"))
    }
  }

  /// The rule book's budget for temporary names holds for the names StampFiles makes: the longest output name's
  /// temporary, with the longest pid (ten digits) in place of this process's, fits in NAME_MAX.
  @Test func theTemporaryNameBudgetHoldsForTheNamesMade() {
    let longest = String(repeating: "n", count: PathRules.longestName)
    let made = TemporaryName.make(for: longest)
    let ownPid = String(getpid()).utf8.count
    #expect(made.utf8.count - ownPid + 10 == PathRules.nameMax)
    #expect(made.utf8.count - longest.utf8.count - ownPid + 10 == PathRules.temporaryNameOverhead)
  }

  /// Temporaries of a run that died (kill -9) are removed by the next run that opens their folder, --out or one
  /// under it (which files count as stale is `TemporaryFilesTests`' subject).
  @Test func theNextRunSweepsTheFoldersItOpens() throws {
    let w = try TestFolder()
    defer { w.remove() }
    try FileManager.default.createDirectory(atPath: w.path("out/sub"), withIntermediateDirectories: true)
    // pid_max on Linux is at most 4194304: pid 2147483000 belongs to no process.
    let dead = ".a.png.stampcam-\(TemporaryName.machine)-2147483000-0badf00d.tmp"
    try w.write("out/" + dead, "x")
    try w.write("out/sub/" + dead, "x")
    let paths = try OutputPaths(folder: w.path("out"))
    #expect(w.files("out") == ["sub/" + dead])
    _ = try paths.resolve("sub/y.png", job: "a", inputs: [])
    #expect(w.files("out").isEmpty)
  }
}
