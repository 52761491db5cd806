import StampCore

/// The manifest's rules for a `touches` item, applied one event at a time as the item is written (`stampcam
/// import`), so that nothing is written that a manifest refuses: each number within the bounds the decoder checks
/// (the same bounds: `ManifestWalker.touches` reads them here), the touch-stream rules (`TouchStreamCheck`, which
/// `TouchStream.validate` runs), and the limits of one job: `maxTouchEvents` events and `maxBytes` of text.
package struct TouchItemCheck {
  static let tBounds = Shapes.touch.bounds("t")
  static let idBounds = Shapes.touch.bounds("id")
  static let xyBounds = NumberBounds.coordinate

  /// The limits the item must keep.
  package let limits: Limits
  private var stream = TouchStreamCheck()
  /// Events checked so far.
  package private(set) var events = 0
  /// Bytes of the item as `TouchesJSON` writes it so far: `{"touches": [` and a line end, each event's line (two
  /// spaces, the object, a comma and a line end, which the last has not) and a line end and `]}`.
  package private(set) var bytes = "{\"touches\": [\n".utf8.count + "\n]}".utf8.count - ",\n".utf8.count

  /// A check with nothing seen, under `limits`.
  package init(limits: Limits = Limits()) {
    self.limits = limits
  }

  /// What is wrong with writing `event` (whose JSON text is `text` bytes long) next, or nil when the manifest takes
  /// it; the event is counted either way.
  package mutating func problem(with event: TouchEvent, textBytes: Int) -> String? {
    events += 1
    bytes += textBytes + 4
    if events > limits.maxTouchEvents {
      return "more than \(limits.maxTouchEvents) touch events, the most one job of a manifest holds"
    }
    if bytes > limits.maxBytes {
      return "the touches item would be over \(limits.maxBytes) bytes, the most a manifest holds"
    }
    let numbers: [(String, Double, NumberBounds)] = [
      ("t", event.t, Self.tBounds), ("id", Double(event.id), Self.idBounds), ("x", event.location.x, Self.xyBounds),
      ("y", event.location.y, Self.xyBounds),
    ]
    for (name, value, bounds) in numbers {
      guard value.isFinite else { return "\(name) must be a finite number, not \(value)" }
      if let problem = bounds.problem(with: value) { return "\(name) \(problem)" }
    }
    var first: String?
    stream.check(event, index: events - 1) { issue in
      if first == nil { first = (issue.field.map { "\($0): " } ?? "") + issue.message }
    }
    return first
  }
}
