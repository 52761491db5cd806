extension TouchSynthesizer {
  static func drag(_ drag: DragItem, index: Int, canvas: Canvas) throws(ReplayError) -> [TouchEvent] {
    try check(drag.by.isFinite, index, "drag.by", "must be finite numbers")
    try checkTiming(drag.duration, drag.steps, index, "drag")
    let start: StampPoint
    switch drag.from {
    case .stamp(let id):
      start = try touchPoint(on: id, index: index, canvas: canvas).center
    case .point(let p):
      try check(p.isFinite, index, "drag.from", "must be finite numbers")
      start = p
    }
    var points: [StampPoint] = []
    points.reserveCapacity(drag.steps + 1)
    let slop = canvas.settings.tapSlop
    let length = drag.by.length
    if length <= slop {
      // A finger exactly at the slop is still tapping: reach 1 point past it.
      let direction = length > 0 ? drag.by / length : StampPoint(1, 0)
      points.append(start + direction * (slop + 1))
    }
    for k in 1...drag.steps {
      points.append(k == drag.steps ? start + drag.by : start + drag.by * (Double(k) / Double(drag.steps)))
    }
    var events = [TouchEvent(t: 0, id: 1, phase: .began, location: start)]
    events.reserveCapacity(points.count + 1)
    for (j, p) in points.enumerated() {
      let last = j == points.count - 1
      let t = last ? drag.duration : drag.duration * Double(j + 1) / Double(points.count)
      events.append(TouchEvent(t: t, id: 1, phase: last ? .ended : .moved, location: p))
    }
    return events
  }
}
