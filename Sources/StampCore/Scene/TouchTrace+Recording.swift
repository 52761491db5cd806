extension [TouchTrace] {
  /// Adds an event's image-space position to the trace of its finger, starting a trace when it touches down.
  mutating func record(_ event: TouchEvent, item: Int, at point: StampPoint) {
    if event.phase == .began {
      append(TouchTrace(item: item, id: event.id, points: [point], lifted: false))
      return
    }
    guard let index = lastIndex(where: { $0.item == item && $0.id == event.id }) else { return }
    if event.phase != .stationary { self[index].points.append(point) }
    if event.phase == .ended { self[index].lifted = true }
  }
}
