/// Single, double and two-finger taps, counted as a tap-detecting view counts them.
///
/// - A tap is one finger, down to up within `tapMaxDuration` (at most: exactly that long is still a tap), never
///   farther than `tapSlop` from where it came down (exactly `tapSlop` is still a tap; 0 means not moving at all).
/// - Taps count up when the next touch begins within `doubleTapInterval` of the last tap ending and within
///   `doubleTapDistance` of it (both at most). Such a touch holds the pending single tap back, as a single-tap
///   recognizer that requires the double tap to fail does; a touch that begins farther away or later does not, and
///   the single tap fires at its time.
/// - A single tap fires `doubleTapInterval` after its touch ends, unless a second touch began by then. A held-back
///   single tap fires as soon as the second touch cannot be a tap any more: in the frame where it moves past the
///   slop, is joined by another finger or is cancelled, or `tapMaxDuration` after it came down while it is still
///   down; if the second touch is a tap, a double tap fires when it ends.
/// - A double tap ends its sequence, as Android's GestureDetector does: the next tap counts from one again, so four
///   quick taps are two double taps (in and back out with the toggle) and three are a double tap and a single tap.
/// - A two-finger tap: a touch sequence (first finger down to last finger up) of exactly two touches, each a tap,
///   lifted together or in turn; a third finger, or a pinch that started, rules it out. It is located at the midpoint of where they lifted.
struct TapRecognizer: Sendable {
  /// What a lifted finger completed.
  enum Outcome: Equatable {
    case none
    /// A double tap at a view point.
    case doubleTap(StampPoint)
    /// A two-finger tap at a view point (the midpoint).
    case twoFingerTap(StampPoint)
  }

  private let settings: GestureSettings
  private var lastCount = 0
  private var lastEnd = 0.0
  private var lastPoint = StampPoint.zero
  /// Single taps waiting for their time, oldest first; more than one when taps land far apart in quick succession.
  private var pending: [(t: Double, at: StampPoint)] = []
  private var sequenceTouches = 0
  private var sequenceAllTaps = true
  private var sequenceCount = 0
  private var firstLift = StampPoint.zero
  /// The single tap held back while the touch that began near it may still become its second tap, with the time
  /// that touch came down.
  private var held: (at: StampPoint, secondDown: Double)?

  /// A recognizer with these thresholds.
  init(settings: GestureSettings) {
    self.settings = settings
  }

  /// When the last tap's pending single tap fires, if it has one.
  private var deadline: Double { lastEnd + settings.doubleTapInterval }

  /// The oldest pending single tap, if it is due at `time`: strictly before it (`inclusive` false), or at it too.
  @inline(__always) mutating func dueSingleTap(at time: Double, inclusive: Bool) -> (t: Double, at: StampPoint)? {
    guard let first = pending.first, time > first.t || (inclusive && time == first.t) else { return nil }
    return pending.removeFirst()
  }

  /// The held-back single tap, if its second touch has been down longer than a tap lasts at `time`: it fires at the
  /// moment the touch became too long for a tap.
  mutating func heldTapExpired(at time: Double) -> (t: Double, at: StampPoint)? {
    guard let held, time - held.secondDown > settings.tapMaxDuration else { return nil }
    self.held = nil
    return (held.secondDown + settings.tapMaxDuration, held.at)
  }

  /// The held-back single tap, released at `time` because its second touch cannot be a tap any more.
  mutating func releaseHeldTap(at time: Double) -> (t: Double, at: StampPoint)? {
    guard let held else { return nil }
    self.held = nil
    return (time, held.at)
  }

  /// Whether a single tap is held back, waiting for the touch now down.
  var isHolding: Bool { held != nil }

  /// When the next single tap fires if no touch comes: the oldest pending one's time, or the moment the touch
  /// holding one back has been down longer than a tap lasts; nil when none waits.
  var nextDeadline: Double? {
    let expiry = held.map { $0.secondDown + settings.tapMaxDuration }
    guard let first = pending.first?.t else { return expiry }
    return expiry.map { min($0, first) } ?? first
  }

  /// The pending single taps, whenever they are due: at the end of an item. Tap counting starts over.
  mutating func flush() -> [(t: Double, at: StampPoint)] {
    if let held = releaseHeldTap(at: lastEnd) { pending.append(held) }
    defer {
      pending.removeAll(keepingCapacity: true)
      lastCount = 0
    }
    return pending
  }

  /// A finger came down at `time` and view point `p`; `startsSequence` when no other finger is down.
  mutating func began(at time: Double, _ p: StampPoint, startsSequence: Bool) {
    if startsSequence {
      sequenceTouches = 0
      sequenceAllTaps = true
      sequenceCount = 1
      let distance = settings.doubleTapDistance
      if lastCount > 0 && time <= deadline && (p - lastPoint).lengthSquared <= distance * distance {
        sequenceCount = lastCount + 1
        // The pending single tap, if any, is the last tap's: this touch may be its second tap, so it waits.
        if lastCount == 1, let last = pending.popLast() { held = (last.at, time) }
      }
    }
    sequenceTouches += 1
  }

  /// The fingers down started a pinch: this touch sequence is no two-finger tap.
  mutating func pinchStarted() {
    sequenceAllTaps = false
  }

  /// A finger lifted at `time` (view point `p`, image point `q`); `endsSequence` when it was the last one down.
  mutating func ended(_ touch: LiveTouch, at time: Double, _ p: StampPoint, image q: StampPoint, endsSequence: Bool)
    -> Outcome
  {
    let isTap = touch.isTap(endingAt: time, maxDuration: settings.tapMaxDuration)
    if !isTap { sequenceAllTaps = false }
    if sequenceTouches == 1 {
      guard isTap else {
        lastCount = 0
        // The engine releases a held tap as soon as its second touch fails; this is only a safety net.
        if let held = releaseHeldTap(at: time) { pending.append(held) }
        return .none
      }
      lastEnd = time
      lastPoint = p
      guard sequenceCount == 1 else {
        lastCount = 0
        held = nil
        return .doubleTap(p)
      }
      lastCount = 1
      pending.append((deadline, q))
      return .none
    }
    lastCount = 0
    guard endsSequence else {
      firstLift = p
      return .none
    }
    return sequenceTouches == 2 && sequenceAllTaps ? .twoFingerTap(.midpoint(firstLift, p)) : .none
  }
}
