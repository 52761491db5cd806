/// The touch-stream rules applied one event at a time, so that a live session can check each frame as it arrives
/// and a whole recorded stream is checked by the very same code (`TouchStream.validate`).
package struct TouchStreamCheck: Sendable {
  /// The ids of the touches that are down, in the order they came down.
  private(set) var live: [Int] = []
  /// The latest valid time seen, or -infinity before the first event.
  private(set) var lastTime = -Double.infinity

  /// A check with no touch down and no time seen.
  package init() {
    live.reserveCapacity(TouchStream.maxLiveTouches)
  }

  /// Checks `event` (at `index` in its stream) against what came before, reports each problem to `report` and
  /// takes the event into account.
  package mutating func check(_ event: TouchEvent, index: Int, report: (TouchStreamIssue) -> Void) {
    func issue(_ field: String?, _ message: String) {
      report(TouchStreamIssue(index: index, field: field, message: message))
    }
    if !event.t.isFinite {
      issue("t", "must be a finite number, not \(formatNumber(event.t))")
    } else if event.t < 0 {
      issue("t", "time is negative (\(formatNumber(event.t)))")
    } else if event.t < lastTime {
      issue("t", "time goes backwards (\(formatNumber(event.t)) after \(formatNumber(lastTime)))")
    } else {
      lastTime = event.t
    }
    if !event.location.x.isFinite { issue("x", "must be a finite number, not \(formatNumber(event.location.x))") }
    if !event.location.y.isFinite { issue("y", "must be a finite number, not \(formatNumber(event.location.y))") }
    let slot = live.firstIndex(of: event.id)
    switch event.phase {
    case .began:
      if slot != nil {
        issue("id", "touch \(event.id) begins again while it is down")
      } else if live.count >= TouchStream.maxLiveTouches {
        issue("phase", "more than \(TouchStream.maxLiveTouches) touches down at once")
      } else {
        live.append(event.id)
      }
    case .moved, .stationary, .ended, .cancelled:
      guard let slot else {
        issue("phase", Self.notDown(event))
        return
      }
      if event.phase == .ended || event.phase == .cancelled { live.remove(at: slot) }
    }
  }

  /// Moves the clock to `time` with no event, so that no later event may come before it.
  mutating func advance(to time: Double) {
    lastTime = max(lastTime, time)
  }

  /// Forgets the touches that are down (the engine cancelled them); the clock keeps going.
  mutating func cancelAll() {
    live.removeAll(keepingCapacity: true)
  }

  private static func notDown(_ event: TouchEvent) -> String {
    switch event.phase {
    case .moved: return "touch \(event.id) moves before it begins"
    case .stationary: return "touch \(event.id) rests before it begins"
    case .ended: return "touch \(event.id) ends before it begins"
    case .cancelled: return "touch \(event.id) is cancelled before it begins"
    case .began: return "touch \(event.id) begins"
    }
  }
}
