import StampCore

/// Turns CDP touch messages into touch events, by comparing each message's points with the touches already down.
struct CDPReplay {
  /// What a message's `touchPoints` lists.
  enum Style: Sendable, Hashable {
    /// The protocol's documented form: every touch down after the message. A new id begins, a listed id moves, a
    /// missing id ends; `touchEnd` and `touchCancel` carry no points and end every touch.
    case activePoints
    /// Puppeteer's touch handles (and other drivers of newer Chrome): only the touches the message is about;
    /// the others stay as they are. A `touchEnd` or `touchCancel` lists the touches that end (none: all of them).
    case changedPoints

    /// The style of a log: `changedPoints` when it has a `touchEnd` or `touchCancel` with points, or a
    /// `touchStart` while touches are down, neither of which the documented form allows.
    static func of(_ messages: [CDPMessage]) -> Style {
      var down = false
      for message in messages {
        switch message.kind {
        case .touchStart:
          if down { return .changedPoints }
          down = true
        case .touchMove:
          down = true
        case .touchEnd, .touchCancel:
          if !message.points.isEmpty { return .changedPoints }
          down = false
        }
      }
      return .activePoints
    }
  }

  private struct Live {
    var touch: Int
    var x: Double
    var y: Double
  }

  let style: Style
  private var live: [Int: Live] = [:]
  private var nextID = 0

  init(style: Style) {
    self.style = style
  }

  /// The events of one message, at time `t`, ordered by touch id.
  mutating func apply(_ message: CDPMessage, at t: Double) throws -> [TouchEvent] {
    var events: [TouchEvent] = []
    let ending = message.kind == .touchEnd || message.kind == .touchCancel
    let endPhase: TouchPhase = message.kind == .touchCancel ? .cancelled : .ended
    func end(_ id: Int, at point: Live) {
      events.append(TouchEvent(t: t, id: point.touch, phase: endPhase, location: StampPoint(point.x, point.y)))
      live[id] = nil
    }
    if ending && (style == .activePoints || message.points.isEmpty) {
      for (id, point) in live { end(id, at: point) }
    } else if ending {
      for point in message.points {
        guard let old = live[point.id] else {
          throw ImportError.invalid(line: message.line, message: "touch point \(point.id) ends but is not down")
        }
        end(point.id, at: Live(touch: old.touch, x: point.x, y: point.y))
      }
    } else {
      for point in message.points {
        if let old = live[point.id] {
          if old.x != point.x || old.y != point.y {
            events.append(TouchEvent(t: t, id: old.touch, phase: .moved, location: StampPoint(point.x, point.y)))
            live[point.id] = Live(touch: old.touch, x: point.x, y: point.y)
          }
        } else {
          events.append(TouchEvent(t: t, id: nextID, phase: .began, location: StampPoint(point.x, point.y)))
          live[point.id] = Live(touch: nextID, x: point.x, y: point.y)
          nextID += 1
        }
      }
      if style == .activePoints {
        let listed = Set(message.points.map(\.id))
        for (id, point) in live where !listed.contains(id) { end(id, at: point) }
      }
    }
    return events.sortedWithinFrame()
  }
}
