import StampCore

/// One touch's change in one frame, still in the device's raw units.
struct RawTouch: Sendable, Hashable {
  /// The importer's touch id: 0, 1, 2, ... in the order the touches began.
  var id: Int
  /// What happened to the touch.
  var phase: TouchPhase
  /// The raw x value.
  var x: Int32
  /// The raw y value.
  var y: Int32
}

/// The changes one `SYN_REPORT` closes, with the report's time.
struct RawFrame: Sendable, Hashable {
  /// The report's kernel timestamp in microseconds.
  var micros: Int64
  /// The touches that began, moved or ended; touches that did not move are left out.
  var touches: [RawTouch]
  /// The line of the log that closed the frame (its `SYN_REPORT`).
  var line = 0
}

extension TouchPhase {
  /// Where an event of this phase goes among the same touch's events in one frame: a touch begins before it ends.
  var rankInFrame: Int {
    switch self {
    case .began: return 0
    case .moved: return 1
    case .stationary: return 2
    case .ended, .cancelled: return 3
    }
  }
}

extension Array where Element == TouchEvent {
  /// Orders one frame's events by touch id (and a touch's own events by phase), so that the output does not depend
  /// on the order a driver happened to report its slots in.
  func sortedWithinFrame() -> [TouchEvent] {
    sorted { ($0.id, $0.phase.rankInFrame) < ($1.id, $1.phase.rankInFrame) }
  }
}
