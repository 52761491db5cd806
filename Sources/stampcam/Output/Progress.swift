import Foundation
import Synchronization

/// A progress line on a terminal: count, rate and time left, redrawn in place at most ten times a second.
final class Progress: Sendable {
  private let total: Int?
  private let enabled: Bool
  private let start = Date()
  /// When the line was last drawn; held while drawing, so that lines never interleave.
  private let lastDraw = Mutex(Date.distantPast)

  init(total: Int?, enabled: Bool) {
    self.total = total
    self.enabled = enabled
  }

  func update(done: Int) {
    guard enabled else { return }
    lastDraw.withLock { lastDraw in
      let now = Date()
      guard done == total || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
      lastDraw = now
      let elapsed = now.timeIntervalSince(start)
      let rate = elapsed > 0 ? Double(done) / elapsed : 0
      let rateText = String(format: "%.1f", rate)
      let text: String
      if let total, total > 0 {
        let left = rate > 0 ? Double(total - done) / rate : 0
        let width = 24
        let filled = min(width, width * done / total)
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        text = "\r[\(bar)] \(done)/\(total)  \(rateText) jobs/s  \(Self.clock(left)) left "
      } else {
        // A streamed manifest's length is unknown until its end: count and rate only.
        text = "\r\(done) jobs  \(rateText) jobs/s  \(Self.clock(elapsed)) elapsed "
      }
      StandardStream.error.write(text)
    }
  }

  func finish() {
    guard enabled else { return }
    StandardStream.error.write("\r\u{1B}[K")
  }

  static func clock(_ seconds: Double) -> String {
    let s = Int(seconds.rounded())
    return s >= 3600
      ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
  }
}
