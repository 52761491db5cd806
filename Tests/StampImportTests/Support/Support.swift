import StampCore

/// A touch event written the way the hand-worked expectations read: `touch(0.01, 1, .began, 200, 500)`.
func touch(_ t: Double, _ id: Int, _ phase: TouchPhase, _ x: Double, _ y: Double) -> TouchEvent {
  TouchEvent(t: t, id: id, phase: phase, location: StampPoint(x, y))
}

/// Whether two event lists agree: ids and phases exactly, times and coordinates within `tolerance`.
func agree(_ actual: [TouchEvent], _ expected: [TouchEvent], tolerance: Double = 1e-9) -> Bool {
  guard actual.count == expected.count else { return false }
  return zip(actual, expected).allSatisfy { a, e in
    a.id == e.id && a.phase == e.phase && abs(a.t - e.t) <= tolerance
      && abs(a.location.x - e.location.x) <= tolerance && abs(a.location.y - e.location.y) <= tolerance
  }
}

/// One line per event, to make a failed comparison readable.
func listing(_ events: [TouchEvent]) -> String {
  events.map { "\($0.t) #\($0.id) \($0.phase.rawValue) \($0.location)" }.joined(separator: "\n")
}
