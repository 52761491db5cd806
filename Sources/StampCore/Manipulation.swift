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
  /// gesture, which is reported again at its first effect.
  mutating func anchor(_ a: LiveTouch?, _ b: LiveTouch?, canvas: Canvas) {
    let viewport = canvas.viewport
    let count = a == nil ? 0 : (b == nil ? 1 : 2)
    if count != fingers {
      reported = false
      pinching = false
      movedBeforeStart = false
      if let target { held = canvas.pose(of: target) }
    }
    fingers = count
    if let a {
      firstID = a.id
      anchorA = a.point
    }
    if let b {
      secondID = b.id
      anchorB = b.point
      let mid = StampPoint.midpoint(anchorA, anchorB)
      start = (viewport.zoom, (anchorB - anchorA).length, viewport.toImage(mid))
      if !pinching { origin = (anchorA, anchorB) }
    }
  }

  /// One frame of the anchored fingers at `time`; returns the gesture when this frame is its first effect.
  @inline(__always) mutating func follow(
    _ a: LiveTouch, _ b: LiveTouch?, at time: Double, on canvas: inout Canvas
  ) -> RecognizedGesture? {
    if let b { return pinch(a.point, b.point, at: time, on: &canvas) }
    return drag(a, at: time, on: &canvas)
  }

  @inline(__always) private mutating func pinch(
    _ a: StampPoint, _ b: StampPoint, at time: Double, on canvas: inout Canvas
  ) -> RecognizedGesture? {
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
    let moved = ratio != 1 || turn != 0 || (target == nil && mid != previousMid)
    let starting = !pinching
    if starting {
      if moved {
        movedBeforeStart = true
        if let target { held = canvas.step(held, ratio: ratio, turn: turn) }
      }
      let slop = canvas.settings.pinchSlop
      guard Self.isPastPinchSlop(a, from: origin.a, slop: slop) || Self.isPastPinchSlop(b, from: origin.b, slop: slop)
      else { return nil }
      pinching = true
      guard movedBeforeStart else { return nil }
    } else {
      guard moved else { return nil }
    }
    let gesture = reported ? nil : recognized(.pinch, at: mid, time: time, canvas: canvas)
    reported = true
    if let target {
      if starting {
        canvas.setPose(target, held)
      } else {
        canvas.pinchStamp(target, ratio: ratio, turn: turn)
      }
    } else {
      let distance = current.length
      // Fingers that came down on one spot have no distance to scale from: the first frame they part starts over.
      if start.distance == 0 { start = (canvas.viewport.zoom, distance, start.image) }
      let zoom = start.distance > 0 && distance > 0 ? start.zoom * (distance / start.distance) : start.zoom
      canvas.viewport.setZoom(zoom, keeping: start.image, at: mid)
    }
    return gesture
  }

  @inline(__always) private mutating func drag(
    _ a: LiveTouch, at time: Double, on canvas: inout Canvas
  ) -> RecognizedGesture? {
    // Within the slop the anchor stays put, so the first step past it carries the whole motion: none is lost.
    guard a.pastSlop else { return nil }
    let delta = a.point - anchorA
    anchorA = a.point
    guard delta != .zero else { return nil }
    let gesture = reported ? nil : recognized(.drag, at: a.point, time: time, canvas: canvas)
    reported = true
    if let target {
      canvas.dragStamp(target, by: delta)
    } else {
      canvas.scroll(by: delta)
    }
    return gesture
  }

  private func recognized(_ kind: GestureKind, at p: StampPoint, time: Double, canvas: Canvas) -> RecognizedGesture {
    RecognizedGesture(kind: kind, t: time, at: canvas.viewport.toImage(p), target: target.map { canvas.stamps[$0].id })
  }
}
