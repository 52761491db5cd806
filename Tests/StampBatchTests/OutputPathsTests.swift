import Foundation
import StampManifest
import StampRender
import StampTestSupport
import Testing

@testable import StampBatch

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
    let longest = String(repeating: "n", count: 255 - 34 - 4) + ".png"
    #expect(longest.utf8.count == 221)
    _ = try paths.resolve(longest, job: "a", inputs: [])
    #expect(throws: BatchError.self) { try paths.resolve("n" + longest, job: "a", inputs: []) }
    do {
      _ = try paths.resolve("d/" + String(repeating: "x", count: 236) + ".png", job: "a", inputs: [])
      Issue.record("a 240-byte name was accepted")
    } catch {
      #expect("\(error)".contains("at most 221"))
    }
  }

  /// Temporaries of a run that died (kill -9) are removed by the next run that opens their folder; those of a live
  /// process and files that merely look alike stay.
  @Test func staleTemporariesOfDeadRunsAreRemoved() throws {
    let w = try TestFolder()
    defer { w.remove() }
    try FileManager.default.createDirectory(atPath: w.path("out/sub"), withIntermediateDirectories: true)
    // pid_max on Linux is at most 4194304: pid 2147483000 belongs to no process.
    let dead = ".a.png.stampcam-2147483000-0badf00d.tmp"
    let alive = ".b.png.stampcam-\(getpid() == 1 ? 2 : 1)-0badf00d.tmp"
    let lookalike = ".c.png.stampcam-2147483000-nothex!!.tmp"
    for name in [dead, alive, lookalike] {
      try w.write("out/" + name, "x")
      try w.write("out/sub/" + name, "x")
    }
    let paths = try OutputPaths(folder: w.path("out"))
    #expect(w.files("out").filter { !$0.hasPrefix("sub/") } == [alive, lookalike].sorted())
    #expect(w.files("out/sub").count == 3)
    _ = try paths.resolve("sub/y.png", job: "a", inputs: [])
    #expect(w.files("out/sub") == [alive, lookalike].sorted())
  }
}
