import Foundation

/// Counts of a finished run, and the one-line summary printed to stderr.
package struct Summary: Sendable, Equatable {
  package var ok = 0
  package var failed = 0
  package var skipped = 0
  package var seconds = 0.0
  /// Jobs whose JPEG was re-encoded from pixels, by reason (the fallback's text up to its first colon).
  package var fallbacks: [String: Int] = [:]

  /// Tallies outcomes.
  package init(_ outcomes: [JobOutcome] = [], seconds: Double = 0) {
    for outcome in outcomes { add(outcome) }
    self.seconds = seconds
  }

  /// Counts one more outcome.
  package mutating func add(_ outcome: JobOutcome) {
    switch outcome.status {
    case .ok: ok += 1
    case .failed: failed += 1
    case .skipped: skipped += 1
    }
    if let fallback = outcome.fallback {
      fallbacks[String(fallback.prefix { $0 != ":" }), default: 0] += 1
    }
  }

  /// Jobs counted so far.
  package var total: Int { ok + failed + skipped }

  /// E.g. `2 jobs fell back from the lossless JPEG path to pixels: 1 colour-space, 1 damaged`; nil when none did.
  package var fallbackLine: String? {
    let count = fallbacks.values.reduce(0, +)
    guard count > 0 else { return nil }
    let reasons = fallbacks.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.value) \($0.key)" }
    return "\(count) job\(count == 1 ? "" : "s") fell back from the lossless JPEG path to pixels: "
      + reasons.joined(separator: ", ")
  }

  /// E.g. `3 jobs: 2 written, 1 failed, 0 skipped in 1.2 s`.
  package var line: String {
    let time = seconds < 10 ? String(format: "%.2f", seconds) : String(format: "%.1f", seconds)
    return "\(total) job\(total == 1 ? "" : "s"): \(ok) written, \(failed) failed, \(skipped) skipped in \(time) s"
  }
}
