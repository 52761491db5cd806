/// How `replay(_:)` plays a script through a session: each item's touches on the job's clock, then `endItem()`.
extension StampSession {
  /// The touches of gesture item `index`: a recorded trace once it passes the touch-stream rules, or the touches a
  /// high-level item makes on the scene as it is now, with `t` relative to the item's start.
  func events(for item: GestureItem, index: Int) throws(ReplayError) -> [TouchEvent] {
    if case .touches(let recorded) = item {
      let issues = TouchStream.validate(recorded)
      if !issues.isEmpty { throw .invalidTouches(item: index, issues: issues) }
      return recorded
    }
    return try TouchSynthesizer.events(for: item, index: index, canvas: engine.canvas)
  }

  /// Plays checked touches of item `index` that start at `start` on the job's clock; `traces`, when not nil,
  /// gets every finger's path in image pixels (each point mapped with the viewport as it was then).
  ///
  /// Frames are told apart by each event's own `t`, as `GestureEngine.handle` does, so that adding `start` never
  /// merges two of them; the item's last frame is applied by `endItem()`.
  mutating func play(_ events: [TouchEvent], item index: Int, start: Double, recording traces: inout [TouchTrace]?) {
    if traces != nil {
      for event in events {
        traces?.record(event, item: index, at: engine.canvas.viewport.toImage(event.location))
        engine.handle(event, start: start)
      }
    } else {
      for event in events { engine.handle(event, start: start) }
    }
  }
}
