import StampCore

/// Turns CDP touch messages into touch events, by comparing each message's points with the touches already down.
///
/// One rule, whatever brought a touch down, the one Chromium applies to `Input.dispatchTouchEvent`
/// (content/browser/devtools/protocol/input_handler.cc): a message changes only the touches it lists. A listed id
/// that is not down begins (in a `touchStart` or a `touchMove` alike), a listed id that is down moves when its
/// point changed, and a touch left out of a message stays down where it was. A `touchEnd` ends the touches it
/// lists, or every touch when it lists none; a `touchCancel` likewise cancels them. Headless Chromium 156, fed a
/// `touchMove` that left a finger out, kept that finger in the page's `touches` until the `touchEnd`, whether the
/// finger had come down in a `touchStart` or in a `touchMove`. Reading a left-out touch as lifted (what the
/// protocol's wording of `touchPoints` as "active touch points" suggests) made two logs that differ only in the
/// type of one message end in two different gestures.
struct CDPReplay {
  private struct Live {
    var touch: Int
    var x: Double
    var y: Double
  }

  private var live: [Int: Live] = [:]
  private var nextID = 0

  /// The events of one message, at time `t`, ordered by touch id.
  mutating func apply(_ message: CDPMessage, at t: Double) throws -> [TouchEvent] {
    var events: [TouchEvent] = []
    let endPhase: TouchPhase = message.kind == .touchCancel ? .cancelled : .ended
    func end(_ id: Int, at point: Live) {
      events.append(TouchEvent(t: t, id: point.touch, phase: endPhase, location: StampPoint(point.x, point.y)))
      live[id] = nil
    }
    switch message.kind {
    case .touchEnd, .touchCancel:
      if message.points.isEmpty {
        for (id, point) in live { end(id, at: point) }
      }
      for point in message.points {
        guard let old = live[point.id] else {
          throw ImportError.invalid(line: message.line, message: "touch point \(point.id) ends but is not down")
        }
        end(point.id, at: Live(touch: old.touch, x: point.x, y: point.y))
      }
    case .touchStart, .touchMove:
      for point in message.points {
        if let old = live[point.id] {
          guard old.x != point.x || old.y != point.y else { continue }
          events.append(TouchEvent(t: t, id: old.touch, phase: .moved, location: StampPoint(point.x, point.y)))
          live[point.id] = Live(touch: old.touch, x: point.x, y: point.y)
        } else {
          events.append(TouchEvent(t: t, id: nextID, phase: .began, location: StampPoint(point.x, point.y)))
          live[point.id] = Live(touch: nextID, x: point.x, y: point.y)
          nextID += 1
        }
      }
    }
    return events.sortedWithinFrame()
  }
}
