import Foundation
import StampFiles
import StampTestFolders
import StampTestSupport
import Testing

@testable import StampBatch

/// `Cancellation`: the run's temporary files are its own, and a signal's cleanup removes them.
struct CancellationTests {
  /// A job's outputs are staged in the temporary files of the cancellation it runs under: the cleanup of a second
  /// signal (`removeTemporaryFiles`) removes them mid-job, the job fails and nothing is left, while another run's
  /// cancellation holds nothing and is not touched.
  @Test func aRunsTemporariesAreItsCancellationsAndTheCleanupRemovesThem() throws {
    let w = try TestFolder()
    defer { w.remove() }
    try w.ppm("photo.ppm", width: 4, height: 4, rgb: [1, 2, 3])
    try w.write("m.json", #"{"version": 1, "jobs": [{"id": "a", "base": "photo.ppm", "output": "x.png"}]}"#)
    var options = BatchOptions(outputFolder: w.path("out"))
    options.overlay = true
    let runner = try BatchRunner(options: options)
    let (cancellation, other) = (Cancellation(), Cancellation())
    let seen = Locked<(mine: Set<String>, other: Set<String>)?>(nil)
    var renderer = runner.jobRenderer
    // Before the overlay is drawn, the main output is staged: the signal's cleanup comes then.
    renderer.beforeOverlay = {
      seen.withLock { $0 = (cancellation.temporaries.inProgress, other.temporaries.inProgress) }
      cancellation.removeTemporaryFiles()
    }
    let job = try #require(try w.jobs("m.json").first)
    var outcome: JobOutcome?
    BatchRunner.perform(job, with: renderer, ledger: nil, options: options, cancellation: cancellation) {
      outcome = $0
      return true
    }
    #expect(seen.withLock { $0?.mine } == ["x.png"])
    #expect(seen.withLock { $0?.other } == [])
    #expect(outcome?.status == .failed, "\(String(describing: outcome))")
    #expect(cancellation.temporaries.inProgress.isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: w.path("out")).filter { $0 != ".stampcam" } == [])
  }
}
