import Foundation
import StampFiles
import StampManifest
import StampTestSupport
import Testing

@testable import StampBatch

/// The resume ledger against changes made while a batch runs: a stamp replaced, `--out` swapped for a link, a
/// record edited by hand.
@Suite("Resume: records that describe what was made")
struct ResumeLedgerHostileTests {
  /// `count` jobs drawing one 4 x 4 stamp at (10, 10) on 40 x 20 photos of grey 40, each into `j<i>.png`.
  static func prepare(_ w: Workspace, jobs count: Int) throws {
    try w.ppm("photo.ppm", width: 40, height: 20, rgb: [40, 40, 40])
    try w.ppm("stamp.ppm", width: 4, height: 4, rgb: [255, 0, 0])
    let jobs = (0..<count).map { i in
      #"{"id": "j\#(i)", "base": "photo.ppm", "output": "j\#(i).png", "stamps": [{"id": "s", "image": "stamp.ppm", "center": [10, 10]}]}"#
    }
    try w.write("m.json", #"{"version": 1, "jobs": ["# + jobs.joined(separator: ",") + "]}")
  }

  static func options(_ w: Workspace, resume: Bool = false) -> BatchOptions {
    var options = BatchOptions(outputFolder: w.path("out"), concurrency: 1)
    options.resume = resume
    return options
  }

  /// Replaces the stamp by renaming a blue one over it, as a sync tool or an editor saving does.
  static func replaceStamp(_ w: Workspace) {
    try? w.ppm("blue.ppm", width: 4, height: 4, rgb: [0, 0, 255])
    _ = rename(w.path("blue.ppm"), w.path("stamp.ppm"))
  }

  /// The one record in `out/.stampcam`.
  static func recordPath(_ w: Workspace) throws -> String {
    let names = try FileManager.default.contentsOfDirectory(atPath: w.path("out/.stampcam"))
    let records = names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".lock") }
    #expect(records.count == 1)
    return w.path("out/.stampcam/" + (try #require(records.first)))
  }

  /// A stamp replaced after the first of four jobs (--jobs 1) was drawn red in all four (the cache held the
  /// first decode), and `--resume` then skipped the last three, whose records held the new file's size and time.
  /// Now the last three are drawn blue, as a fresh run draws them, and `--resume` renders the first again only.
  @Test func aStampReplacedMidBatchIsDrawnAndRecordedAsItIsNow() throws {
    let w = try Workspace()
    defer { w.remove() }
    try Self.prepare(w, jobs: 4)
    let replaced = Locked(false)
    let outcomes = try BatchRunner(options: Self.options(w)).run(try w.jobs("m.json")) { _ in
      if !replaced.withLock({ $0 }) { Self.replaceStamp(w) }
      replaced.withLock { $0 = true }
    }
    #expect(outcomes.map(\.status) == [.ok, .ok, .ok, .ok])
    #expect(try Pixels(w.path("out/j0.png"))[10, 10] == [255, 0, 0])
    for i in 1..<4 { #expect(try Pixels(w.path("out/j\(i).png"))[10, 10] == [0, 0, 255], "j\(i)") }
    let again = try BatchRunner(options: Self.options(w, resume: true)).run(try w.jobs("m.json"))
    #expect(again.map(\.resume) == ["redone: input changed"] + Array(repeating: "skipped: up to date", count: 3))
    #expect(try Pixels(w.path("out/j0.png"))[10, 10] == [0, 0, 255])
  }

  /// The same, once the transform cache keeps the stamp's layer (a placement asked for twice is kept): the layer
  /// was keyed by the stamp's path and placement alone, so the jobs after the replacement were drawn from the kept
  /// red layer. Now the key holds the decode it was made from, and a replaced stamp is a new decode.
  @Test func aStampReplacedAfterItsLayerWasKeptIsDrawnAsItIsNow() throws {
    let w = try Workspace()
    defer { w.remove() }
    try Self.prepare(w, jobs: 5)
    let done = Locked(0)
    let outcomes = try BatchRunner(options: Self.options(w)).run(try w.jobs("m.json")) { _ in
      let count = done.withLock { count in
        count += 1
        return count
      }
      if count == 3 { Self.replaceStamp(w) }
    }
    #expect(outcomes.map(\.status) == Array(repeating: .ok, count: 5))
    for i in 0..<3 { #expect(try Pixels(w.path("out/j\(i).png"))[10, 10] == [255, 0, 0], "j\(i)") }
    for i in 3..<5 { #expect(try Pixels(w.path("out/j\(i).png"))[10, 10] == [0, 0, 255], "j\(i)") }
  }

  /// A stamp replaced while its job renders (after the fingerprint was taken) may be drawn in either version: the
  /// job gets no record, so the next `--resume` renders it again rather than trust it.
  @Test func aStampReplacedMidJobLeavesNoRecord() throws {
    let w = try Workspace()
    defer { w.remove() }
    try Self.prepare(w, jobs: 1)
    let runner = try BatchRunner(options: Self.options(w))
    var renderer = runner.jobRenderer
    renderer.afterResolving = { Self.replaceStamp(w) }
    let job = try #require(try w.jobs("m.json").first)
    BatchRunner.perform(
      job, with: renderer, ledger: runner.ledger, options: runner.options, cancellation: Cancellation()
    ) { outcome in
      #expect(outcome.status == .ok)
      return true
    }
    let again = try BatchRunner(options: Self.options(w, resume: true)).run([job])
    #expect(again.first?.resume == "redone: no record of how the outputs were made")
    #expect(try BatchRunner(options: Self.options(w, resume: true)).run([job]).first?.status == .skipped)
  }

  /// With `--out` swapped for a link to another folder while a job ran, its record (written by path) landed
  /// in the other folder. Now `.stampcam` is held open from the start: the record lands beside the outputs, in the
  /// folder that was opened, and nothing goes to the other one.
  @Test func anOutSwappedForALinkMidRunSendsNoRecordElsewhere() throws {
    let w = try Workspace()
    defer { w.remove() }
    try Self.prepare(w, jobs: 1)
    try FileManager.default.createDirectory(atPath: w.path("elsewhere"), withIntermediateDirectories: true)
    let runner = try BatchRunner(options: Self.options(w))
    var renderer = runner.jobRenderer
    let (out, elsewhere) = (w.path("out"), w.path("elsewhere"))
    renderer.afterResolving = {
      _ = rename(out, out + "-moved")
      _ = symlink(elsewhere, out)
    }
    let job = try #require(try w.jobs("m.json").first)
    BatchRunner.perform(
      job, with: renderer, ledger: runner.ledger, options: runner.options, cancellation: Cancellation()
    ) { $0.status == .ok }
    #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    let kept = try FileManager.default.contentsOfDirectory(atPath: out + "-moved/.stampcam")
    #expect(kept == [Digest("j0.png").hex])
    #expect(w.files("out-moved") == ["j0.png"])
  }

  /// The weakness: a record edited by hand (the job line set to the digest of an edited job, worked out with
  /// stampcam's own code as a forger would) made `--resume` skip the edited job. Now the record's check digest no
  /// longer matches its text: the job is rendered again and the report says why.
  @Test func aRecordEditedByHandIsNotTrusted() throws {
    let w = try Workspace()
    defer { w.remove() }
    try Self.prepare(w, jobs: 1)
    _ = try BatchRunner(options: Self.options(w)).run(try w.jobs("m.json"))
    let text = try String(contentsOfFile: w.path("m.json"), encoding: .utf8)
    try w.write("m.json", text.replacingOccurrences(of: "[10, 10]", with: "[30, 10]"))
    let edited = try #require(try w.jobs("m.json").first)
    let runner = try BatchRunner(options: Self.options(w, resume: true))
    let forged = try #require(ResumeFingerprint(job: edited, renderer: runner.jobRenderer)).job
    let path = try Self.recordPath(w)
    let record = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      $0.hasPrefix("job ") ? "job " + forged : String($0)
    }
    try Data((record.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    let outcome = try #require(runner.run([edited]).first)
    #expect(outcome.status == .ok)
    #expect(outcome.resume?.hasPrefix("redone: record damaged (its check digest does not match") == true)
    #expect(try Pixels(w.path("out/j0.png"))[30, 10] == [255, 0, 0])
  }
}
