import Foundation
import StampRender

/// A flag the signal handler sets and the workers read: once cancelled, no new job starts; `stopJobs` then stops
/// the jobs in flight.
public final class Cancellation: @unchecked Sendable {
  private let lock = NSLock()
  private var cancelled = false
  private var running: [ObjectIdentifier: JobControl] = [:]
  private var stopReason: String?

  /// A flag not yet set.
  public init() {}

  /// Stops the batch from taking more jobs.
  public func cancel() {
    lock.lock()
    cancelled = true
    lock.unlock()
  }

  /// Stops every job in flight and every job that starts later, with `reason` as its error.
  public func stopJobs(because reason: String) {
    lock.lock()
    stopReason = reason
    let jobs = Array(running.values)
    lock.unlock()
    for job in jobs { job.stop(because: reason) }
  }

  /// Makes `control` stop with the others (`stopJobs`), from now until `untrack`.
  func track(_ control: JobControl) {
    lock.lock()
    running[ObjectIdentifier(control)] = control
    let reason = stopReason
    lock.unlock()
    if let reason { control.stop(because: reason) }
  }

  func untrack(_ control: JobControl) {
    lock.lock()
    running[ObjectIdentifier(control)] = nil
    lock.unlock()
  }

  /// True once `cancel()` was called.
  public var isCancelled: Bool {
    lock.lock()
    defer { lock.unlock() }
    return cancelled
  }

  /// Deletes the temporary files of the outputs being written right now; for a process about to exit at once.
  public static func removeTemporaryFiles() {
    TemporaryFiles.shared.removeAll()
  }
}

/// What stampcam accepts as input (`--input-root`, `--fail-on`, `--allow-untrusted-loaders`).
public typealias InputPolicy = StampRender.InputPolicy

/// Whole-or-nothing file writes, for the command line's own outputs (imported touches).
public typealias AtomicFile = StampRender.AtomicFile
