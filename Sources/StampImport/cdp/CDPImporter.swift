import StampCore

/// Turns a Chrome DevTools Protocol touch log into touch events.
///
/// The log is JSON Lines: one `Input.dispatchTouchEvent` message per line, whole
/// (`{"method": "Input.dispatchTouchEvent", "params": {"type": "touchMove", "touchPoints": [...]}}`) or as its bare
/// params object; lines about other methods, responses (`{"id": 3, "result": {}}`) and blank lines are skipped.
///
/// - Phases come from comparing each message's point ids with the touches already down, as Chromium does: a
///   message changes only the touches it lists, whatever brought them down. A new id begins, a listed id that moved
///   moves, a touch left out stays down; `touchEnd` and `touchCancel` end the touches they list, or all of them when
///   they list none. So the documented form (`touchPoints` listing every touch down) and Puppeteer's (only the
///   touch a message is about) read alike. See ``CDPReplay``.
/// - Touch ids are the importer's own: 0, 1, 2, ... in the order the touches began (CDP ids are reused: a point
///   without an id is its index in the list).
/// - Each message is one frame. Its `t` is its `timestamp` (seconds) less the first message's; a message without one
///   comes one frame (1/60 s) after the one before it.
/// - Coordinates are CSS pixels, taken as view points unchanged.
package enum CDPImporter {
  /// The length of one frame for messages that have no `timestamp`: 1/60 s.
  package static let frameDuration = 1.0 / 60

  /// Reads a CDP touch log into touch events.
  ///
  /// - Parameter text: The whole log, one JSON object per line.
  /// - Returns: The touch events, in time order.
  /// - Throws: ``ImportError``, naming the line.
  package static func parse(_ text: String) throws -> [TouchEvent] {
    var events: [TouchEvent] = []
    try parse(LogLines(text: text)) { event, _ in events.append(event) }
    return events
  }

  /// Reads a CDP touch log as `parse(_:)` does, streaming: each message's touch events are handed to `emit` with
  /// the message's line as soon as it is read, and nothing is kept. `emit` may throw to stop.
  package static func parse(_ lines: LogLines, emit: (TouchEvent, Int) throws -> Void) throws {
    var number = 0
    var replay = CDPReplay()
    var any = false
    var anchor: (stamp: Double, t: Double)?
    var last: Double?
    let next = try lines.open()
    while let raw = try next() {
      number += 1
      let line = raw.trimmingWhitespace()
      if line.isEmpty { continue }
      guard let message = try CDPMessage.parse(line, line: number) else { continue }
      let t: Double
      if let stamp = message.timestamp, let anchor {
        t = anchor.t + (stamp - anchor.stamp)
      } else {
        t = last.map { $0 + frameDuration } ?? 0
        if let stamp = message.timestamp { anchor = (stamp, t) }
      }
      if let last, t < last {
        let stamp = message.timestamp.map { "\($0)" } ?? "?"
        throw ImportError.invalid(line: message.line, message: "timestamp \(stamp) goes back in time")
      }
      last = t
      for event in try replay.apply(message, at: t) {
        any = true
        try emit(event, message.line)
      }
    }
    guard any else {
      throw ImportError.noTouches(hint: "no Input.dispatchTouchEvent message with touch points")
    }
  }
}
