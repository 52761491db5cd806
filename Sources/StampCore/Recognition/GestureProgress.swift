/// How far the pinch or drag under way has gone since its fingers formed it: what its phase events report.
///
/// Scale and translation are measured from the fingers' points when the gesture formed, so their values do not depend
/// on how the motion was cut into frames (fingers 100 points apart that end 150 apart give exactly 1.5). The rotation
/// is the sum of each frame's turn, as a stamp's rotation is, so it goes on past 180 degrees. When the pair changes
/// within a pinch (a third finger takes a lifted one's place) the measures carry on from where they were.
struct GestureProgress: Sendable {
  /// The finger distance now over the distance when the gesture formed (1 for one finger).
  private(set) var scale = 1.0
  /// The finger line's turn since the gesture formed, in degrees, clockwise positive.
  private(set) var rotation = 0.0
  /// How far the fingers' centre moved since the gesture formed, in view points.
  private(set) var translation = StampPoint.zero
  /// The fingers' centre now (one finger's point, or a pair's midpoint), in view points.
  private(set) var center = StampPoint.zero
  /// The centre in image pixels, as the last frame that moved the fingers mapped it; the engine sets it.
  var imageLocation = StampPoint.zero
  private var base = (scale: 1.0, translation: StampPoint.zero)
  private var origin = (center: StampPoint.zero, distance: 0.0)

  /// No gesture: every measure at rest.
  init() {}

  /// A gesture forming with its finger at `a`, or its pair at `a` and `b`.
  init(_ a: StampPoint, _ b: StampPoint?) {
    rebase(a, b)
  }

  /// The fingers changed within the gesture (now at `a`, and `b`): the measures go on from these points.
  mutating func rebase(_ a: StampPoint, _ b: StampPoint?) {
    base = (scale, translation)
    center = b.map { .midpoint(a, $0) } ?? a
    origin = (center, b.map { ($0 - a).length } ?? 0)
  }

  /// The fingers are now at `a` (and `b`), their line having turned by `turn` radians since the last update;
  /// returns whether any measure changed.
  mutating func update(_ a: StampPoint, _ b: StampPoint?, turn: Double) -> Bool {
    let before = (scale, rotation, center)
    center = b.map { .midpoint(a, $0) } ?? a
    translation = base.translation + (center - origin.center)
    rotation += turn * degreesPerRadian
    if let b {
      let distance = (b - a).length
      // Fingers that came down on one spot have no distance to scale from: the first frame they part starts over.
      if origin.distance == 0 {
        base.scale = scale
        origin.distance = distance
      }
      if origin.distance > 0 { scale = base.scale * (distance / origin.distance) }
    }
    return scale != before.0 || rotation != before.1 || center != before.2
  }
}
