import StampFiles
import StampRender
import Synchronization

/// A flag the signal handler sets and the workers read: once cancelled, no new job starts; `stopJobs` then stops
/// the jobs in flight. It holds the run's temporary files, which every job of a run it is given to registers in, so
/// that the signal handler can remove them all (`removeTemporaryFiles`).
package final class Cancellation: Sendable {
  private struct State {
    var cancelled = false
    var running: [ObjectIdentifier: JobControl] = [:]
    var stopReason: String?
  }

  private let state = Mutex(State())
  /// The temporary files of the jobs run under this cancellation.
  package let temporaries: TemporaryFiles

  /// A flag not yet set, over `temporaries` (by default a registry of its own).
  package init(temporaries: TemporaryFiles = TemporaryFiles()) {
    self.temporaries = temporaries
  }

  /// Stops the batch from taking more jobs.
  package func cancel() {
    state.withLock { $0.cancelled = true }
  }

  /// Stops every job in flight and every job that starts later, with `reason` as its error.
  package func stopJobs(because reason: String) {
    let jobs = state.withLock {
      $0.stopReason = reason
      return Array($0.running.values)
    }
    for job in jobs { job.stop(because: reason) }
  }

  /// Makes `control` stop with the others (`stopJobs`), from now until `untrack`.
  func track(_ control: JobControl) {
    let reason = state.withLock {
      $0.running[ObjectIdentifier(control)] = control
      return $0.stopReason
    }
    if let reason { control.stop(because: reason) }
  }

  func untrack(_ control: JobControl) {
    state.withLock { $0.running[ObjectIdentifier(control)] = nil }
  }

  /// True once `cancel()` was called.
  package var isCancelled: Bool {
    state.withLock { $0.cancelled }
  }

  /// Deletes the temporary files of the outputs being written right now; for a process about to exit at once.
  package func removeTemporaryFiles() {
    temporaries.removeAll()
  }
}
