import Dispatch
import Foundation
import Synchronization
import Testing

@testable import StampBatch

/// The per-job timeout timer: it fires once after its time, never once cancelled, and a cancelled timer lets go of
/// what its handler holds at once, not at its deadline (a batch held every finished job's control for 300 s).
struct JobTimerTests {
  /// Something a handler holds, to see when it is let go.
  final class Held: Sendable {}

  @Test func aCancelledTimerLetsGoOfItsHandlerAtOnce() async throws {
    weak var watched: Held?
    var timer: JobTimer?
    do {
      let held = Held()
      watched = held
      timer = JobTimer(seconds: 300) { _ = held }
    }
    #expect(watched != nil, "the handler holds it while the timer runs")
    timer?.cancel()
    // Dispatch releases a cancelled source's handler on its queue, soon after the cancel.
    for _ in 0..<100 where watched != nil { try await Task.sleep(for: .milliseconds(10)) }
    #expect(watched == nil)
  }

  @Test func itFiresOnceAfterItsTimeAndNeverWhenCancelledOrZero() async throws {
    let fired = Mutex(0)
    let timer = JobTimer(seconds: 0.05) { fired.withLock { $0 += 1 } }
    let cancelled = JobTimer(seconds: 0.05) { fired.withLock { $0 += 100 } }
    cancelled.cancel()
    let none = JobTimer(seconds: 0) { fired.withLock { $0 += 1000 } }
    try await Task.sleep(for: .milliseconds(400))
    #expect(fired.withLock { $0 } == 1)
    timer.cancel()
    none.cancel()
  }
}
