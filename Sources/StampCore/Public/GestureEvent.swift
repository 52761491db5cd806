/// Where a gesture is in its life, as UIKit's gesture recognizers and Hammer.js report it.
public enum GesturePhase: String, Sendable, CaseIterable {
  /// A pinch or drag had its first effect: the frame of its `RecognizedGesture`.
  case began
  /// The fingers of a pinch or drag that began moved.
  case changed
  /// A pinch or drag ended: a finger lifted or joined (the mode changed); or a tap, double tap or two-finger tap was
  /// recognized (these are reported once, ended).
  case ended
  /// A pinch or drag ended because a finger was cancelled: by the stream, or by `StampSession.endItem()` with
  /// fingers still down.
  case cancelled
}

/// One step of a gesture, for an app that follows gestures as they happen (`StampSession.latestEvents`).
///
/// A pinch or drag reports `began` at its first effect (the frame of its `RecognizedGesture`, with the same `t` and
/// image point), `changed` in each later frame its fingers move, and `ended` or `cancelled` once. `scale`, `rotation`
/// and `viewTranslation` are measured from where its fingers were when the gesture formed (the first finger down, or
/// the pair forming), so `began` carries the motion made inside the slops. Taps are one `ended` event each.
public struct GestureEvent: Sendable, Hashable {
  /// What the gesture is.
  public var kind: GestureKind
  /// Where it is in its life.
  public var phase: GesturePhase
  /// The stamp id the gesture acts on, or nil for the viewport (and for taps, as in `RecognizedGesture`).
  public var target: String?
  /// When, in seconds on the session's clock (the job's clock in a replay).
  public var t: Double
  /// A pinch's finger distance now over the distance when the pair formed; 1 for other gestures. The stamp's own
  /// scale is clamped to the scale range; this one is not.
  public var scale: Double
  /// How far a pinch's finger line has turned since the pair formed, in degrees, clockwise positive, summed frame by
  /// frame (so it goes past 180); 0 for other gestures.
  public var rotation: Double
  /// How far the fingers' centre (a drag's finger, a pinch's midpoint) has moved since the gesture formed, in view
  /// points; zero for taps.
  public var viewTranslation: StampPoint
  /// Where the fingers' centre is, in image pixels, mapped as `RecognizedGesture.at` is: with the viewport as it was
  /// before the frame moved it (`ended` and `cancelled` repeat the gesture's last one); for taps, the tap's point.
  public var imageLocation: StampPoint

  /// Creates a gesture event.
  public init(
    kind: GestureKind, phase: GesturePhase, target: String?, t: Double, scale: Double = 1, rotation: Double = 0,
    viewTranslation: StampPoint = .zero, imageLocation: StampPoint
  ) {
    self.kind = kind
    self.phase = phase
    self.target = target
    self.t = t
    self.scale = scale
    self.rotation = rotation
    self.viewTranslation = viewTranslation
    self.imageLocation = imageLocation
  }
}

/// What a `StampSession` keeps of what it was fed.
public enum SessionHistory: Sendable, Hashable {
  /// Every recognized gesture in `gestures`, and every touch fed, for `script`: memory grows with the session. What
  /// the batch uses, and the default.
  case all
  /// The latest `n` recognized gestures in `gestures`, and no touches (`script` stays empty): memory stays flat
  /// however long the session runs.
  case last(Int)
  /// Nothing: `gestures` and `script` stay empty. Each call's gestures and `latestEvents` are still reported.
  case none
}
