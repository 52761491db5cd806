/// A stamp as the gestures move it, in image space.
struct Stamp: Sendable, Hashable {
  /// The stamp's id.
  let id: String
  /// Its centre in image pixels.
  var center: StampPoint
  /// Its size in image pixels before `scale`.
  let size: StampSize
  /// Scale factor.
  var scale: Double
  /// Rotation in degrees, clockwise positive; kept in degrees so that an untouched stamp keeps its exact value.
  var rotation: Double
  /// A locked stamp still catches touches (it is on the screen, so the finger lands on it) but ignores them, as a
  /// transformable view switched off does.
  let locked: Bool

  /// Places a stamp from its spec, given in view points, at the viewport the screen first shows.
  init(_ spec: StampSpec, in viewport: Viewport) {
    let k = viewport.scale
    let width = (spec.width ?? spec.pixelSize.width) / k
    id = spec.id
    center = viewport.toImage(spec.center)
    size = StampSize(width, width * spec.pixelSize.height / spec.pixelSize.width)
    scale = spec.scale
    rotation = spec.rotation
    locked = spec.locked
  }

  /// Whether image point `q` lies in the stamp's rotated, scaled rectangle (edges included).
  func contains(_ q: StampPoint) -> Bool {
    let radians = rotation / degreesPerRadian
    let c = cMathCos(radians)
    let s = cMathSin(radians)
    let d = q - center
    // Rotating back by -rotation brings the point into the stamp's own axes.
    let u = c * d.x + s * d.y
    let v = -s * d.x + c * d.y
    return abs(u) <= size.width * scale / 2 && abs(v) <= size.height * scale / 2
  }

  /// How far from the centre the stamp's edge is, in image pixels, along the unit direction `direction`.
  func reach(along direction: StampPoint) -> Double {
    let radians = rotation / degreesPerRadian
    let c = cMathCos(radians)
    let s = cMathSin(radians)
    let u = abs(c * direction.x + s * direction.y)
    let v = abs(-s * direction.x + c * direction.y)
    let halfWidth = size.width * scale / 2
    let halfHeight = size.height * scale / 2
    return min(u > 0 ? halfWidth / u : .infinity, v > 0 ? halfHeight / v : .infinity)
  }

  /// The stamp as the renderer and `explain` see it.
  var placed: PlacedStamp {
    PlacedStamp(id: id, center: center, size: size, scale: scale, rotation: rotation)
  }
}
