import StampBatch
import Synchronization

/// The summary of a batch as its jobs end, counted from the threads they end on.
final class Tally: Sendable {
  private let summary = Mutex(Summary())

  /// Counts `outcome`; the number of jobs counted so far.
  func add(_ outcome: JobOutcome) -> Int {
    summary.withLock { summary in
      summary.add(outcome)
      return summary.total
    }
  }

  /// The counts so far.
  var current: Summary { summary.withLock { $0 } }
}
