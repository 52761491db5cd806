/// The pinch/rotate and drag recognizer: moves the sequence's target (a stamp or the viewport) as the fingers move.
///
/// It follows the two earliest fingers that are down (as a view handling touchesMoved uses the first two touches). Its anchors
/// are where those fingers were at the last frame it acted on; whenever the pair changes (a finger added or
/// lifted) it re-anchors at the fingers' current points, so nothing jumps. A stamp is pinched step by step (its scale
/// clamped at every step); the viewport, as a scroll view, from where the pair was anchored: zoom = clamp(zoom then x
/// distance / distance then), the image point then under the fingers' midpoint kept under their midpoint now.
///
/// Two fingers pinch only once one of them is farther than `pinchSlop` from where it was when the pair formed
/// (see `GestureSettings.pinchSlop` for why a finger-motion threshold, and its default). Before that a stamp's
/// steps go to a pose of its own (each clamped as on the stamp), which the stamp takes in the frame the pinch
/// starts; the viewport needs no such pose, since its zoom is taken from the pair's start anyway. So a two-finger
/// tap's jitter changes nothing, and a pinch that starts has lost none of its motion, as a drag keeps the motion
/// inside the tap slop.
struct Manipulation: Sendable {
  /// The stamp the first finger of the sequence landed on, or nil for the viewport.
  var target: Int?
  /// How many fingers drive it: 0 (idle), 1 (drag) or 2 (pinch).
  private(set) var fingers = 0
  private var firstID = 0
  private var secondID = 0
  private var anchorA = StampPoint.zero
  private var anchorB = StampPoint.zero
  private var reported = false
  /// The viewport's zoom, the finger distance and the image point under the midpoint when the pair was anchored.
  private var start = (zoom: 1.0, distance: 0.0, image: StampPoint.zero)
  /// Whether the pair has passed the pinch slop: then each frame acts at once.
  private(set) var pinching = false
  /// Where the pair's fingers were when it formed: the pinch slop is measured from there.
  private var origin = (a: StampPoint.zero, b: StampPoint.zero)
  /// Whether a frame before the pinch started moved the fingers: the start is then its first effect.
  private var movedBeforeStart = false
  /// The target stamp's pose with the steps made before the pinch started.
  private var held: StampPose = (1, 0)
  /// The fingers' midpoint's motion before the pinch started, in view points: with `pinchMoves`, the stamp takes it
  /// when the pinch starts.
  private var heldShift = StampPoint.zero
  /// How far the gesture under way has gone since its fingers formed it, for its phase events.
  private(set) var progress = GestureProgress()

  /// Whether a finger at `p` is past `slop` from `origin`; the synthesizer makes its pinches pass by this same test.
  @inline(__always) static func isPastPinchSlop(_ p: StampPoint, from origin: StampPoint, slop: Double) -> Bool {
    (p - origin).length > slop
  }

  /// Whether `a` and `b` (nil when one finger is down) are the fingers it is anchored to.
  @inline(__always) func drives(_ a: LiveTouch, _ b: LiveTouch?) -> Bool {
    guard let b else { return fingers == 1 && a.id == firstID }
    return fingers == 2 && a.id == firstID && b.id == secondID
  }

  /// Anchors to the fingers now down (nil, nil when none); a change of mode (idle, drag, pinch) starts a new
  /// gesture, which is reported again at its first effect. Returns the end of the gesture under way, if it began
  /// and this ends it: `ended`, or `cancelled` when `cancelled` (a finger that left in this frame was cancelled).
  mutating func anchor(
    _ a: LiveTouch?, _ b: LiveTouch?, canvas: Canvas, at time: Double, cancelled: Bool
  ) -> GestureEvent? {
    let viewport = canvas.viewport
    let count = a == nil ? 0 : (b == nil ? 1 : 2)
    let changesMode = count != fingers
    var end: GestureEvent?
    if changesMode {
      if reported { end = event(cancelled ? .cancelled : .ended, at: time, canvas: canvas) }
      reported = false
      pinching = false
      movedBeforeStart = false
      heldShift = .zero
      if let target { held = canvas.pose(of: target) }
    }
    fingers = count
    if let a {
      firstID = a.id
      anchorA = a.point
      if changesMode {
        progress = GestureProgress(a.point, b?.point)
      } else {
        progress.rebase(a.point, b?.point)
      }
    }
    if let b {
      secondID = b.id
      anchorB = b.point
      let mid = StampPoint.midpoint(anchorA, anchorB)
      start = (viewport.zoom, (anchorB - anchorA).length, viewport.toImage(mid))
      if !pinching { origin = (anchorA, anchorB) }
    }
    return end
  }

  /// What one frame did: the gesture when the frame is its first effect, and the phase to report (nil: none).
  typealias Step = (gesture: RecognizedGesture?, phase: GesturePhase?)

  /// One frame of the anchored fingers at `time`: the gesture when this frame is its first effect (phase `began`),
  /// or phase `changed` when the fingers of a gesture that began moved.
  @inline(__always) mutating func follow(
    _ a: LiveTouch, _ b: LiveTouch?, at time: Double, on canvas: inout Canvas
  ) -> Step {
    if let b { return pinch(a.point, b.point, at: time, on: &canvas) }
    return drag(a, at: time, on: &canvas)
  }

  @inline(__always) private mutating func pinch(
    _ a: StampPoint, _ b: StampPoint, at time: Double, on canvas: inout Canvas
  ) -> Step {
    let previous = anchorB - anchorA
    let current = b - a
    let previousLength2 = previous.lengthSquared
    let currentLength2 = current.lengthSquared
    // Fingers on one spot have no line: the scale waits for them to part rather than become 0 or infinite.
    let ratio = previousLength2 > 0 && currentLength2 > 0 ? (currentLength2 / previousLength2).squareRoot() : 1
    let turn = signedTurn(from: previous, to: current)
    let previousMid = StampPoint.midpoint(anchorA, anchorB)
    let mid = StampPoint.midpoint(a, b)
    anchorA = a
    anchorB = b
    let progressed = progress.update(a, b, turn: turn)
    // A stamp follows the midpoint only with `pinchMoves`; the viewport always keeps the image under it.
    let follows = target == nil || canvas.settings.pinchMoves
    let moved = ratio != 1 || turn != 0 || (follows && mid != previousMid)
    let starting = !pinching
    if starting {
      if moved {
        movedBeforeStart = true
        if target != nil {
          held = canvas.step(held, ratio: ratio, turn: turn)
          if follows { heldShift = heldShift + (mid - previousMid) }
        }
      }
      let slop = canvas.settings.pinchSlop
      guard Self.isPastPinchSlop(a, from: origin.a, slop: slop) || Self.isPastPinchSlop(b, from: origin.b, slop: slop)
      else { return (nil, nil) }
      pinching = true
      guard movedBeforeStart else { return (nil, nil) }
    } else if !moved {
      // Nothing to apply (a stamp's pair moving together); the fingers' centre may still have moved.
      guard reported && progressed else { return (nil, nil) }
      progress.imageLocation = canvas.viewport.toImage(mid)
      return (nil, .changed)
    }
    let step = acted(.pinch, at: mid, time: time, canvas: canvas)
    if let target {
      if starting {
        canvas.setPose(target, held)
        if heldShift != .zero { canvas.dragStamp(target, by: heldShift) }
      } else {
        canvas.pinchStamp(target, ratio: ratio, turn: turn)
        if follows && mid != previousMid { canvas.dragStamp(target, by: mid - previousMid) }
      }
    } else {
      let distance = current.length
      // Fingers that came down on one spot have no distance to scale from: the first frame they part starts over.
      if start.distance == 0 { start = (canvas.viewport.zoom, distance, start.image) }
      let zoom = start.distance > 0 && distance > 0 ? start.zoom * (distance / start.distance) : start.zoom
      canvas.viewport.setZoom(zoom, keeping: start.image, at: mid)
    }
    return step
  }

  @inline(__always) private mutating func drag(
    _ a: LiveTouch, at time: Double, on canvas: inout Canvas
  ) -> Step {
    _ = progress.update(a.point, nil, turn: 0)
    // Within the slop the anchor stays put, so the first step past it carries the whole motion: none is lost.
    guard a.pastSlop else { return (nil, nil) }
    let delta = a.point - anchorA
    anchorA = a.point
    guard delta != .zero else { return (nil, nil) }
    let step = acted(.drag, at: a.point, time: time, canvas: canvas)
    if let target {
      canvas.dragStamp(target, by: delta)
    } else {
      canvas.scroll(by: delta)
    }
    return step
  }

  /// The gesture acts in this frame, its fingers' centre at view point `p` before the frame moves anything: it
  /// begins (and is recognized, at `p` in image pixels) if it has not yet, otherwise it changes.
  private mutating func acted(_ kind: GestureKind, at p: StampPoint, time: Double, canvas: Canvas) -> Step {
    progress.imageLocation = canvas.viewport.toImage(p)
    guard !reported else { return (nil, .changed) }
    reported = true
    let id = target.map { canvas.stamps[$0].id }
    return (RecognizedGesture(kind: kind, t: time, at: progress.imageLocation, target: id), .began)
  }

  /// The event of phase `phase` at `time` for the gesture under way (a pinch with two fingers, a drag with one).
  func event(_ phase: GesturePhase, at time: Double, canvas: Canvas) -> GestureEvent {
    GestureEvent(
      kind: fingers == 2 ? .pinch : .drag, phase: phase, target: target.map { canvas.stamps[$0].id }, t: time,
      scale: progress.scale, rotation: progress.rotation, viewTranslation: progress.translation,
      imageLocation: progress.imageLocation)
  }
}
