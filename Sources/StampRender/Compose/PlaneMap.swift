import StampCore

/// An affine map of the plane, p' = L p + t, used to carry a plan from upright image space into the frame of
/// the pixels being drawn on (the stored frame of an EXIF-oriented JPEG, a cut-out region).
struct PlaneMap: Equatable, Sendable {
  /// The linear part [a b; c d].
  var a: Double, b: Double, c: Double, d: Double
  /// The translation.
  var tx: Double, ty: Double

  static let identity = PlaneMap(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

  func apply(_ p: StampPoint) -> StampPoint {
    StampPoint(a * p.x + b * p.y + tx, c * p.x + d * p.y + ty)
  }

  /// This map after `first`: p -> self(first(p)).
  func after(_ first: PlaneMap) -> PlaneMap {
    PlaneMap(
      a: a * first.a + b * first.c, b: a * first.b + b * first.d,
      c: c * first.a + d * first.c, d: c * first.b + d * first.d,
      tx: a * first.tx + b * first.ty + tx, ty: c * first.tx + d * first.ty + ty)
  }

  /// Moves everything by (-x, -y): image coordinates into those of a region whose top-left is (x, y).
  static func translation(_ x: Double, _ y: Double) -> PlaneMap {
    PlaneMap(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
  }

  /// Maps continuous upright coordinates to the stored frame of an image with EXIF `orientation` whose stored
  /// size is `width` x `height`. EXIF says how to turn the stored pixels to display them: 6 means rotate
  /// 90 degrees clockwise, so an upright point (u, v) was stored at (v, height - u).
  static func uprightToStored(orientation: Int, width: Int, height: Int) -> PlaneMap {
    let w = Double(width)
    let h = Double(height)
    switch orientation {
    case 2: return PlaneMap(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0)  // mirrored left-right
    case 3: return PlaneMap(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)  // rotated 180
    case 4: return PlaneMap(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: h)  // mirrored top-bottom
    case 5: return PlaneMap(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)  // transposed
    case 6: return PlaneMap(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: h)  // display needs 90 clockwise
    case 7: return PlaneMap(a: 0, b: -1, c: -1, d: 0, tx: w, ty: h)  // transverse
    case 8: return PlaneMap(a: 0, b: -1, c: 1, d: 0, tx: w, ty: 0)  // display needs 90 anticlockwise
    default: return .identity
    }
  }
}
