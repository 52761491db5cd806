/// Turns a high-level gesture item into the touches a finger would make, at the moment the item plays: a pinch or
/// a drag on a stamp starts where that stamp is on the screen now, after the earlier gestures.
///
/// The fingers: taps last min(0.1 s, tapMaxDuration / 2); a double tap's second touch begins min(0.1 s,
/// doubleTapInterval / 2) after the first ends; a two-finger tap's fingers are 40 points apart, one either side of
/// its point. A pinch's fingers start 100 points apart on a horizontal line, the first one on the stamp (halfway from
/// its centre to its left edge, or 50 points left of the centre when the stamp is larger) or 50 points left of the
/// point; they turn and spread about their midpoint, by scale^(k/n) and rotation*k/n at frame k. A drag moves in a
/// straight line; one shorter than the tap slop first reaches out to the slop along its direction, so that it is
/// still a drag and not a tap.
enum TouchSynthesizer {
  /// The distance between a pinch's fingers when they come down, in view points.
  static let pinchSpan = 100.0

  /// The touches for `item` (any case but `.touches`), with `t` relative to the item's start.
  static func events(for item: GestureItem, index: Int, canvas: Canvas) throws(ReplayError) -> [TouchEvent] {
    let settings = canvas.settings
    let tapTime = min(0.1, settings.tapMaxDuration / 2)
    switch item {
    case .touches(let events):
      return events
    case .tap(let p):
      return try tap(p, at: 0, duration: tapTime, item: index, key: "tap")
    case .doubleTap(let p):
      let gap = min(0.1, settings.doubleTapInterval / 2)
      return try tap(p, at: 0, duration: tapTime, item: index, key: "doubleTap")
        + tap(p, at: tapTime + gap, duration: tapTime, item: index, key: "doubleTap")
    case .twoFingerTap(let p):
      try check(p.isFinite, index, "twoFingerTap.at", "must be finite numbers")
      let a = Point(p.x - 20, p.y)
      let b = Point(p.x + 20, p.y)
      return [
        TouchEvent(t: 0, id: 1, phase: .began, location: a), TouchEvent(t: 0, id: 2, phase: .began, location: b),
        TouchEvent(t: tapTime, id: 1, phase: .ended, location: a),
        TouchEvent(t: tapTime, id: 2, phase: .ended, location: b),
      ]
    case .pinch(let pinch):
      return try self.pinch(pinch, index: index, canvas: canvas)
    case .drag(let drag):
      return try self.drag(drag, index: index, canvas: canvas)
    }
  }

  private static func tap(
    _ p: Point, at start: Double, duration: Double, item: Int, key: String
  ) throws(ReplayError) -> [TouchEvent] {
    try check(p.isFinite, item, "\(key).at", "must be finite numbers")
    return [
      TouchEvent(t: start, id: 1, phase: .began, location: p),
      TouchEvent(t: start + duration, id: 1, phase: .ended, location: p),
    ]
  }

  private static func pinch(_ pinch: PinchItem, index: Int, canvas: Canvas) throws(ReplayError) -> [TouchEvent] {
    try check(pinch.scale.isFinite && pinch.scale > 0, index, "pinch.scale", "must be a positive number")
    try check(pinch.rotation.isFinite, index, "pinch.rotation", "must be a finite number")
    try checkTiming(pinch.duration, pinch.steps, index, "pinch")
    let first: Point
    switch pinch.target {
    case .stamp(let id):
      let (stamp, center) = try touchPoint(on: id, index: index, canvas: canvas)
      let reach = canvas.stamps[stamp].reach(along: Point(-1, 0)) * canvas.viewport.scale
      first = Point(center.x - min(pinchSpan / 2, reach / 2), center.y)
      try check(canvas.hitTest(first) == stamp, index, .stampCovered(item: index, id: id))
    case .point(let p):
      try check(p.isFinite, index, "pinch.at", "must be finite numbers")
      first = Point(p.x - pinchSpan / 2, p.y)
    }
    let mid = Point(first.x + pinchSpan / 2, first.y)
    let turn = pinch.rotation / degreesPerRadian
    // Each frame turns the line by at most 90 degrees, so that every frame's turn is unambiguous.
    let turnSteps = (abs(pinch.rotation) / 90).rounded(.up)
    try check(turnSteps <= Double(maxSteps), index, "pinch.rotation", "must be within \(maxSteps * 90) degrees")
    let steps = max(pinch.steps, Int(turnSteps))
    var events = [
      TouchEvent(t: 0, id: 1, phase: .began, location: first),
      TouchEvent(t: 0, id: 2, phase: .began, location: Point(first.x + pinchSpan, first.y)),
    ]
    events.reserveCapacity(2 * steps + 2)
    for k in 1...steps {
      let f = Double(k) / Double(steps)
      let half = pinchSpan / 2 * (k == steps ? pinch.scale : cMathPow(pinch.scale, f))
      let angle = k == steps ? turn : turn * f
      let arm = Point(cMathCos(angle) * half, cMathSin(angle) * half)
      let t = k == steps ? pinch.duration : pinch.duration * f
      let phase: TouchPhase = k == steps ? .ended : .moved
      events.append(TouchEvent(t: t, id: 1, phase: phase, location: mid - arm))
      events.append(TouchEvent(t: t, id: 2, phase: phase, location: mid + arm))
    }
    return events
  }
}
