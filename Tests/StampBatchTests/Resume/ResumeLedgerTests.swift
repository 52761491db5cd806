import Foundation
import StampManifest
import StampTestSupport
import Testing

@testable import StampBatch

/// `--resume` skips a job only when its outputs were made from the same job, inputs and version.
@Suite("Resume: skip only what is up to date")
struct ResumeLedgerTests {
  /// A 40 x 20 photo of one grey and a red 4 x 4 stamp placed at (10, 10), then dragged by `dx` pixels.
  static func prepare(_ w: Workspace, dx: Int) throws {
    try w.ppm("photo.ppm", width: 40, height: 20, rgb: [40, 40, 40])
    try w.ppm("stamp.ppm", width: 4, height: 4, rgb: [255, 0, 0])
    try edit(w, dx: dx)
  }

  /// Rewrites the manifest alone, with a drag of `dx`.
  static func edit(_ w: Workspace, dx: Int) throws {
    try w.write(
      "m.json",
      #"{"version": 1, "jobs": [{"id": "j", "base": "photo.ppm", "output": "j.png", "stamps": [{"id": "s", "image": "stamp.ppm", "center": [10, 10]}], "gestures": [{"drag": {"on": "s", "by": [\#(dx), 0]}}]}]}"#
    )
  }

  static func run(_ w: Workspace, resume: Bool = true) throws -> JobOutcome {
    var options = BatchOptions(outputFolder: w.path("out"), concurrency: 1)
    options.resume = resume
    let outcome = try #require(try BatchRunner(options: options).run(try w.jobs("m.json")).first)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    return outcome
  }

  /// Rendered, then: nothing changed (skipped), the drag edited (rendered again, the stamp where the new drag
  /// puts it), the photo replaced by another of the same size (rendered again, the new grey around the stamp),
  /// nothing changed again (skipped). The stamp's centre is x = 10 + dx: pixel (29, 10) is red after a drag of 20.
  @Test func editedJobsAndReplacedPhotosAreRenderedAgain() throws {
    let w = try Workspace()
    defer { w.remove() }
    try Self.prepare(w, dx: 0)
    let first = try Self.run(w, resume: false)
    #expect(first.status == .ok && first.resume == nil)
    #expect(try Pixels(w.path("out/j.png"))[10, 10] == [255, 0, 0])

    let unchanged = try Self.run(w)
    #expect(unchanged.status == .skipped && unchanged.resume == "skipped: up to date")

    try Self.edit(w, dx: 20)
    let edited = try Self.run(w)
    #expect(edited.status == .ok && edited.resume == "redone: job changed")
    let moved = try Pixels(w.path("out/j.png"))
    #expect(moved[29, 10] == [255, 0, 0] && moved[10, 10] == [40, 40, 40])

    let before = try modified(w.path("photo.ppm"))
    try w.ppm("photo.ppm", width: 40, height: 20, rgb: [200, 200, 200])
    try FileManager.default.setAttributes(
      [.modificationDate: before.addingTimeInterval(1)], ofItemAtPath: w.path("photo.ppm"))
    let replaced = try Self.run(w)
    #expect(replaced.status == .ok && replaced.resume == "redone: input changed")
    let regrey = try Pixels(w.path("out/j.png"))
    #expect(regrey[29, 10] == [255, 0, 0] && regrey[10, 10] == [200, 200, 200])

    let again = try Self.run(w)
    #expect(again.status == .skipped && again.resume == "skipped: up to date")
  }

  /// An output overwritten by something else, or deleted, is rendered again, and so is one with no record of how
  /// it was made (an earlier stampcam's, or a file put there by hand).
  @Test func outputsNotMadeAsRecordedAreRenderedAgain() throws {
    let w = try Workspace()
    defer { w.remove() }
    try Self.prepare(w, dx: 0)
    #expect(try Self.run(w).resume == "new: no earlier output")
    try w.write("out/j.png", "not the picture")
    #expect(try Self.run(w).resume == "redone: output changed")
    try FileManager.default.removeItem(atPath: w.path("out/j.png"))
    #expect(try Self.run(w).resume == "redone: output missing")
    try FileManager.default.removeItem(atPath: w.path("out/.stampcam"))
    #expect(try Self.run(w).resume == "redone: no record of how the outputs were made")
    #expect(try Self.run(w).resume == "skipped: up to date")
  }

  /// Outputs made by another stampcam version are rendered again.
  @Test func anotherVersionsOutputsAreRenderedAgain() throws {
    let w = try Workspace()
    defer { w.remove() }
    try Self.prepare(w, dx: 0)
    _ = try Self.run(w)
    let job = try #require(try w.jobs("m.json").first)
    let runner = try BatchRunner(options: BatchOptions(outputFolder: w.path("out")))
    let ledger = runner.ledger
    let old = try #require(ResumeFingerprint(job: job, renderer: runner.jobRenderer, version: "0.0.1"))
    ledger.remember(job, outputs: ["j.png"], fingerprint: old)
    #expect(try Self.run(w).resume == "redone: stampcam version changed")
    #expect(try Self.run(w).resume == "skipped: up to date")
  }

  /// Where a job sits in the manifest is no part of what it makes: a job moved down a line is still up to date.
  @Test func aJobMovedWithinItsManifestIsStillUpToDate() throws {
    let w = try Workspace()
    defer { w.remove() }
    try Self.prepare(w, dx: 0)
    _ = try Self.run(w)
    let text = try String(contentsOfFile: w.path("m.json"), encoding: .utf8)
    try w.write("m.json", "\n\n" + text)
    #expect(try Self.run(w).resume == "skipped: up to date")
  }

  /// The same manifest run from another folder names the same files by other paths: still up to date.
  @Test func theSameManifestRunFromAnotherFolderIsStillUpToDate() throws {
    let w = try Workspace()
    defer { w.remove() }
    try Self.prepare(w, dx: 0)
    _ = try Self.run(w)
    try FileManager.default.createDirectory(atPath: w.path("sub"), withIntermediateDirectories: true)
    let jobs = try ManifestDecoder().decode(contentsOf: URL(fileURLWithPath: w.path("sub/../m.json"))).jobs
    #expect(jobs.first?.base != (try w.jobs("m.json")).first?.base)
    var options = BatchOptions(outputFolder: w.path("out"), concurrency: 1)
    options.resume = true
    #expect(try BatchRunner(options: options).run(jobs).first?.resume == "skipped: up to date")
  }

  private func modified(_ path: String) throws -> Date {
    try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
  }
}
