import Foundation

/// A progress line on a terminal: count, rate and time left, redrawn in place at most ten times a second.
final class Progress: @unchecked Sendable {
  private let total: Int
  private let enabled: Bool
  private let start = Date()
  private var lastDraw = Date.distantPast
  private let lock = NSLock()

  init(total: Int, enabled: Bool) {
    self.total = total
    self.enabled = enabled
  }

  func update(done: Int) {
    guard enabled else { return }
    lock.lock()
    defer { lock.unlock() }
    let now = Date()
    guard done == total || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
    lastDraw = now
    let elapsed = now.timeIntervalSince(start)
    let rate = elapsed > 0 ? Double(done) / elapsed : 0
    let left = rate > 0 ? Double(total - done) / rate : 0
    let width = 24
    let filled = total > 0 ? width * done / total : width
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    let text = "\r[\(bar)] \(done)/\(total)  \(String(format: "%.1f", rate)) jobs/s  \(Self.clock(left)) left "
    FileHandle.standardError.write(Data(text.utf8))
  }

  func finish() {
    guard enabled else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
  }

  static func clock(_ seconds: Double) -> String {
    let s = Int(seconds.rounded())
    return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
  }
}
