/// Turns a high-level gesture item into the touches a finger would make, at the moment the item plays: a pinch or
/// a drag on a stamp starts where that stamp is on the screen now, after the earlier gestures.
///
/// The fingers: taps last min(0.1 s, tapMaxDuration / 2); a double tap's second touch begins min(0.1 s,
/// doubleTapInterval / 2) after the first ends; a two-finger tap's fingers are 40 points apart, one either side of
/// its point. A pinch's fingers start on a horizontal line either side of the stamp's centre as the screen shows it
/// now, each halfway from the centre to the stamp's edge (so both are on the stamp, however small, and the pinch is
/// at its centre), and never more than 100 points apart; about a point they start 100 points apart. They turn and
/// spread about their midpoint, by scale^(k/n) and rotation*k/n at frame k; fingers that would never pass the pinch
/// slop first open past it and back (see `opening`), so every pinch starts, and a pinch is no two-finger tap. A drag
/// moves in a straight line; one no longer than the tap slop first reaches 1 point past the slop along its
/// direction, so that it is a drag and not a tap.
enum TouchSynthesizer {
  /// The distance between a pinch's fingers when they come down, in view points: at most this on a stamp.
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
      let a = StampPoint(p.x - 20, p.y)
      let b = StampPoint(p.x + 20, p.y)
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
    _ p: StampPoint, at start: Double, duration: Double, item: Int, key: String
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
    let mid: StampPoint
    var span = pinchSpan
    switch pinch.target {
    case .stamp(let id):
      let (stamp, center) = try touchPoint(on: id, index: index, canvas: canvas)
      let reach = canvas.stamps[stamp].reach(along: StampPoint(-1, 0)) * canvas.viewport.scale
      mid = center
      span = min(pinchSpan, reach)
      try check(canvas.hitTest(StampPoint(mid.x - span / 2, mid.y)) == stamp, index, .stampCovered(item: index, id: id))
    case .point(let p):
      try check(p.isFinite, index, "pinch.at", "must be finite numbers")
      mid = p
    }
    let first = StampPoint(mid.x - span / 2, mid.y)
    let turn = pinch.rotation / degreesPerRadian
    // Each frame turns the line by at most 90 degrees, so that every frame's turn is unambiguous.
    let turnSteps = (abs(pinch.rotation) / 90).rounded(.up)
    try check(turnSteps <= Double(maxSteps), index, "pinch.rotation", "must be within \(maxSteps * 90) degrees")
    let steps = max(pinch.steps, Int(turnSteps))
    var events = [
      TouchEvent(t: 0, id: 1, phase: .began, location: first),
      TouchEvent(t: 0, id: 2, phase: .began, location: StampPoint(mid.x + span / 2, mid.y)),
    ]
    events.reserveCapacity(2 * steps + 6)
    let slop = canvas.settings.pinchSlop
    var passes = false
    for k in 1...steps {
      let f = Double(k) / Double(steps)
      let half = span / 2 * (k == steps ? pinch.scale : cMathPow(pinch.scale, f))
      let angle = k == steps ? turn : turn * f
      let arm = StampPoint(cMathCos(angle) * half, cMathSin(angle) * half)
      let t = k == steps ? pinch.duration : pinch.duration * f
      let phase: TouchPhase = k == steps ? .ended : .moved
      events.append(TouchEvent(t: t, id: 1, phase: phase, location: mid - arm))
      events.append(TouchEvent(t: t, id: 2, phase: phase, location: mid + arm))
      passes =
        passes || Manipulation.isPastPinchSlop(mid - arm, from: events[0].location, slop: slop)
        || Manipulation.isPastPinchSlop(mid + arm, from: events[1].location, slop: slop)
    }
    if !passes {
      let frame = pinch.duration / Double(steps)
      let onStamp = if case .stamp = pinch.target { true } else { false }
      events.insert(
        contentsOf: opening(events[0].location, events[1].location, onStamp: onStamp, slop: slop, frame: frame), at: 2)
    }
    return events
  }

  /// Two frames within the first step, before the path, that take the fingers past the pinch slop and back to where
  /// they landed, for a pinch whose own path stays inside it (a small scale or turn, or a small stamp), so that
  /// it starts and still ends exactly where it asks. On a stamp both fingers move together at right angles to
  /// their line: the line between them stays the same vector, so no step scales or turns the stamp (a spread would
  /// be clamped at the ends of the scale range and change the result). On the background they spread along their
  /// line and come back, which a zoom taken from the pair's start undoes exactly, while their midpoint stays.
  private static func opening(
    _ a: StampPoint, _ b: StampPoint, onStamp: Bool, slop: Double, frame: Double
  ) -> [TouchEvent] {
    // 1 point past the slop, as a short drag reaches 1 point past the tap slop.
    let reach = slop + 1
    let (outA, outB) =
      onStamp
      ? (StampPoint(a.x, a.y + reach), StampPoint(b.x, b.y + reach))
      : (StampPoint(a.x - reach, a.y), StampPoint(b.x + reach, b.y))
    return [
      TouchEvent(t: frame / 3, id: 1, phase: .moved, location: outA),
      TouchEvent(t: frame / 3, id: 2, phase: .moved, location: outB),
      TouchEvent(t: frame * 2 / 3, id: 1, phase: .moved, location: a),
      TouchEvent(t: frame * 2 / 3, id: 2, phase: .moved, location: b),
    ]
  }
}
