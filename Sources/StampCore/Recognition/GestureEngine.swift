/// Turns touch events into frames, runs the recognizers on each frame and applies what they recognize.
///
/// Events with the same `t` form one frame, like one touchesMoved call; a second event of one touch at the same `t`
/// (it landed, then moved) starts a new frame at that time, so the first is applied before it. A frame is applied
/// when the next one starts (or at `finishItem`): first a single tap that fell due (or was held back for a touch that
/// cannot be its second tap any more), then the motion of the fingers that were already down (the pinch or drag),
/// then the fingers that came down (a new sequence hit-tests its first finger to pick its target), then the fingers
/// that lifted (taps), and last the re-anchoring on the fingers now down.
/// No allocation happens per event: the table of fingers keeps its capacity and gestures are appended only when
/// recognized.
struct GestureEngine: Sendable {
  /// The viewport and the stamps.
  private(set) var canvas: Canvas
  /// The gestures recognized (as many as it keeps), and what the latest call recognized.
  var log = GestureLog()
  private var touches: [LiveTouch] = []
  var taps: TapRecognizer
  private var manipulation = Manipulation()
  private let slopSquared: Double
  private var frameKey = 0.0
  private var frameTime = 0.0
  var frameOpen = false

  /// An engine over `canvas` with no finger down.
  init(canvas: Canvas) {
    self.canvas = canvas
    taps = TapRecognizer(settings: canvas.settings)
    slopSquared = canvas.settings.tapSlop * canvas.settings.tapSlop
    touches.reserveCapacity(TouchStream.maxLiveTouches)
  }

  /// Takes one event of a stream that `TouchStream.validate` accepted; `start` is its item's start on the job's
  /// clock. Frames are told apart by the event's own `t`, so the clock's rounding never merges two of them.
  @inline(__always) mutating func handle(_ event: TouchEvent, start: Double) {
    if !frameOpen || event.t != frameKey {
      if frameOpen { commit() }
      frameKey = event.t
      frameTime = start + event.t
      frameOpen = true
    }
    var slot = index(of: event.id)
    // The same finger twice in one frame (it landed and moved, or ended and began again): the events so far become
    // a frame of their own at the same time, so that each of its events is applied in order and none is lost.
    if let found = slot, touches[found].inFrame {
      commit()
      slot = index(of: event.id)
    }
    if let slot { touches[slot].inFrame = true }
    switch event.phase {
    case .began:
      guard slot == nil, touches.count < TouchStream.maxLiveTouches else { return }
      touches.append(LiveTouch(id: event.id, downTime: frameTime, down: event.location))
    case .moved, .stationary:
      guard let slot else { return }
      touches[slot].move(to: event.location, slopSquared: slopSquared)
    case .ended, .cancelled:
      guard let slot else { return }
      touches[slot].move(to: event.location, slopSquared: slopSquared)
      touches[slot].isEnding = true
      touches[slot].cancelled = event.phase == .cancelled
    }
  }

  /// Ends an item: applies its last frame, cancels fingers still down and fires a pending single tap, so that no
  /// two items ever merge into one gesture.
  mutating func finishItem() {
    if frameOpen { commit() }
    frameOpen = false
    if !touches.isEmpty {
      for index in touches.indices {
        touches[index].isEnding = true
        touches[index].cancelled = true
      }
      commit()
    }
    for single in taps.flush() { record(.tap, t: single.t, at: single.at) }
  }

  @inline(__always) private func index(of id: Int) -> Int? {
    var index = 0
    while index < touches.count {
      if touches[index].id == id { return index }
      index += 1
    }
    return nil
  }

  mutating func commit() {
    let time = frameTime
    while let single = taps.dueSingleTap(at: time, inclusive: false) { record(.tap, t: single.t, at: single.at) }
    if let single = taps.heldTapExpired(at: time) { record(.tap, t: single.t, at: single.at) }
    releaseHeldTap(at: time)
    moveFingers(at: time)
    var index = 0
    var cancelled = false
    while index < touches.count {
      touches[index].inFrame = false
      if touches[index].isNew {
        let startsSequence = index == 0
        if startsSequence { manipulation.target = canvas.hitTest(touches[index].down) }
        taps.began(at: time, touches[index].down, startsSequence: startsSequence)
        touches[index].isNew = false
      }
      index += 1
    }
    releaseHeldTap(at: time)
    while let single = taps.dueSingleTap(at: time, inclusive: true) { record(.tap, t: single.t, at: single.at) }
    index = 0
    while index < touches.count {
      guard touches[index].isEnding else {
        index += 1
        continue
      }
      let touch = touches.remove(at: index)
      if touch.cancelled { cancelled = true }
      lift(touch, at: time)
    }
    let first = touches.first
    let second = touches.count > 1 ? touches[1] : nil
    var end: GestureEvent?
    if let first {
      if !manipulation.drives(first, second) {
        end = manipulation.anchor(first, second, canvas: canvas, at: time, cancelled: cancelled)
      }
    } else if manipulation.fingers != 0 {
      end = manipulation.anchor(nil, nil, canvas: canvas, at: time, cancelled: cancelled)
    }
    if let end { log.report(end) }
  }

  /// Fires the single tap held back for the touch now down once that touch cannot be a tap: it moved past the slop,
  /// another finger joined it, or it was cancelled.
  @inline(__always) private mutating func releaseHeldTap(at time: Double) {
    guard taps.isHolding, let first = touches.first else { return }
    guard touches.count > 1 || first.pastSlop || first.cancelled else { return }
    if let single = taps.releaseHeldTap(at: time) { record(.tap, t: single.t, at: single.at) }
  }

  @inline(__always) private mutating func moveFingers(at time: Double) {
    guard let first = touches.first, !first.isNew else { return }
    let second = touches.count > 1 && !touches[1].isNew ? touches[1] : nil
    guard manipulation.drives(first, second) else { return }
    let step = manipulation.follow(first, second, at: time, on: &canvas)
    if let gesture = step.gesture { log.keep(gesture) }
    if let phase = step.phase, log.reportsLatest { log.report(manipulation.event(phase, at: time, canvas: canvas)) }
    // A pinch that started is no two-finger tap: the fingers asked for one or the other, not both.
    if manipulation.pinching { taps.pinchStarted() }
  }

  private mutating func lift(_ touch: LiveTouch, at time: Double) {
    let p = touch.point
    let outcome = taps.ended(touch, at: time, p, image: canvas.viewport.toImage(p), endsSequence: touches.isEmpty)
    switch outcome {
    case .none:
      break
    case .doubleTap(let p):
      record(.doubleTap, t: time, at: canvas.viewport.toImage(p))
      canvas.doubleTap(at: p)
    case .twoFingerTap(let p):
      record(.twoFingerTap, t: time, at: canvas.viewport.toImage(p))
      canvas.twoFingerTap(at: p)
    }
  }

  /// Records a tap, a double tap or a two-finger tap: a gesture, and one `ended` event.
  mutating func record(_ kind: GestureKind, t: Double, at q: StampPoint) {
    log.keep(RecognizedGesture(kind: kind, t: t, at: q, target: nil))
    if log.reportsLatest { log.report(GestureEvent(kind: kind, phase: .ended, target: nil, t: t, imageLocation: q)) }
  }
}
