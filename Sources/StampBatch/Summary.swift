import Foundation

/// Counts of a finished run, and the one-line summary printed to stderr.
public struct Summary: Sendable, Equatable {
  public var ok = 0
  public var failed = 0
  public var skipped = 0
  public var seconds = 0.0

  /// Counts given directly.
  public init(ok: Int, failed: Int, skipped: Int, seconds: Double) {
    self.ok = ok
    self.failed = failed
    self.skipped = skipped
    self.seconds = seconds
  }

  /// Tallies outcomes.
  public init(_ outcomes: [JobOutcome], seconds: Double) {
    for outcome in outcomes {
      switch outcome.status {
      case .ok: ok += 1
      case .failed: failed += 1
      case .skipped: skipped += 1
      }
    }
    self.seconds = seconds
  }

  /// The exit status the design promises: 0 when nothing failed, 1 otherwise.
  public var exitStatus: Int32 { failed > 0 ? 1 : 0 }

  /// E.g. `3 jobs: 2 written, 1 failed, 0 skipped in 1.2 s`.
  public var line: String {
    let total = ok + failed + skipped
    let time = seconds < 10 ? String(format: "%.2f", seconds) : String(format: "%.1f", seconds)
    return "\(total) job\(total == 1 ? "" : "s"): \(ok) written, \(failed) failed, \(skipped) skipped in \(time) s"
  }
}
