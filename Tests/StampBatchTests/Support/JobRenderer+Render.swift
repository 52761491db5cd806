import StampFiles
import StampManifest
import StampRender

@testable import StampBatch

// The batch runner stages each job and commits its outputs with the run's records; tests render a job alone.

extension JobRenderer {
  /// Renders the job and returns the outputs written (relative paths), renamed into place together; when only its
  /// overlay failed, the others are written and the overlay's error thrown.
  func render(_ job: JobEntry, in context: JobContext? = nil) throws -> [String] {
    let context = context ?? self.context()
    let stage = try stage(job, in: context)
    if let error = context.temporaries.commit(stage.files, protecting: inputs(of: job), record: { _ in true }) {
      throw error
    }
    if let failure = stage.overlayFailure { throw failure }
    return stage.files.map(\.display)
  }
}
