import Foundation
import StampCore

/// Where a transformed stamp lands: the affine coefficients in libvips' convention and the integer box it fills.
///
/// Continuous coordinates: pixel (i, j) covers [i, i+1) x [j, j+1), so its centre is (i + 0.5, j + 0.5). libvips
/// samples pixel i at coordinate i, so a continuous coordinate u is libvips coordinate u - 0.5. The stamp's
/// centre (w/2, h/2) must land on `center`; the affine maps u_out = A (u_in - c_in) + center, which in libvips'
/// terms, relative to the box's top-left (left, top), is
/// X = A x + A (0.5 - c_in) + center - (left, top) - 0.5.
struct StampGeometry: Equatable {
  /// The linear part, [a b; c d].
  var a: Double, b: Double, c: Double, d: Double
  /// The translation within the box, libvips' odx/ody.
  var odx: Double, ody: Double
  /// The box in image pixels (already clipped to the image), or nil when the stamp is wholly off it.
  var box: (left: Int, top: Int, width: Int, height: Int)?

  static func == (lhs: StampGeometry, rhs: StampGeometry) -> Bool {
    lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d && lhs.odx == rhs.odx
      && lhs.ody == rhs.ody && lhs.box?.left == rhs.box?.left && lhs.box?.top == rhs.box?.top
      && lhs.box?.width == rhs.box?.width && lhs.box?.height == rhs.box?.height
  }

  /// Computes the geometry for a general linear map [a b; c d] (a reflection included) about the source's centre.
  /// `outline` is the part of the source that can draw anything, in continuous source coordinates (left, top,
  /// right, bottom); nil means the whole source. The box covers the outline's image.
  init(
    sourceSize: StampSize, sourceCenter: StampPoint, linear: (Double, Double, Double, Double), center: StampPoint,
    imageWidth: Int, imageHeight: Int, outline: (Double, Double, Double, Double)? = nil
  ) {
    let (a, b, c, d) = linear
    (self.a, self.b, self.c, self.d) = linear
    // The transformed outline, with a pixel of margin for the interpolator's reach.
    let (ol, ot, or, ob) = outline ?? (0, 0, sourceSize.width, sourceSize.height)
    let (left, top, right, bottom) = Self.cover(
      [(ol, ot), (or, ot), (ol, ob), (or, ob)], margin: 1, width: imageWidth, height: imageHeight
    ) { u, v in
      let (du, dv) = (u - sourceCenter.x, v - sourceCenter.y)
      return (a * du + b * dv + center.x, c * du + d * dv + center.y)
    }
    box = right > left && bottom > top ? (left, top, right - left, bottom - top) : nil
    let ox = 0.5 - sourceCenter.x
    let oy = 0.5 - sourceCenter.y
    odx = a * ox + b * oy + center.x - Double(box?.left ?? 0) - 0.5
    ody = c * ox + d * oy + center.y - Double(box?.top ?? 0) - 0.5
  }
}

extension StampGeometry {
  /// The part of the source the box shows: the box's corners mapped back through the affine, widened by the
  /// interpolator's reach and clipped to the source and to `within` (the pixels that can draw, when given); nil
  /// when the box shows none of it. Cropping the source to it keeps the affine's offsets small whatever the
  /// stamp's size (libvips limits them to 1e7) and spares the resampler the parts of a huge, clipped stamp that
  /// fall outside the photo, and a stamp's transparent margin.
  func sourceWindow(width: Int, height: Int, within: GridRect? = nil) -> (
    left: Int, top: Int, width: Int, height: Int
  )? {
    guard let box else { return nil }
    let determinant = a * d - b * c
    guard determinant != 0, determinant.isFinite else { return nil }
    let (w, h) = (Double(box.width), Double(box.height))
    let (left, top, right, bottom) = Self.cover(
      [(0, 0), (w, 0), (0, h), (w, h)], margin: 3, width: width, height: height
    ) { u, v in
      let (du, dv) = (u - odx, v - ody)
      return ((d * du - b * dv) / determinant, (-c * du + a * dv) / determinant)
    }
    let limit = within ?? GridRect(left: 0, top: 0, width: width, height: height)
    let (x0, y0) = (max(left, limit.left), max(top, limit.top))
    let (x1, y1) = (min(right, limit.right), min(bottom, limit.bottom))
    guard x1 > x0, y1 > y0 else { return nil }
    return (x0, y0, x1 - x0, y1 - y0)
  }

  /// The affine's offsets once the source is cropped to start at (left, top).
  func offsets(croppedAt left: Int, _ top: Int) -> (Double, Double) {
    (odx + a * Double(left) + b * Double(top), ody + c * Double(left) + d * Double(top))
  }

  /// The integer rectangle, within [0, width) x [0, height), that covers `corners` carried through `map`, widened
  /// by `margin` pixels; empty (right <= left) when it misses, or when the map gives a non-finite point. Corners
  /// beyond Int's range saturate (a huge stamp from absurd input covers the whole image rather than trapping).
  private static func cover(
    _ corners: [(Double, Double)], margin: Double, width: Int, height: Int,
    map: (Double, Double) -> (Double, Double)
  ) -> (left: Int, top: Int, right: Int, bottom: Int) {
    let points = corners.map(map)
    let xs = points.map(\.0)
    let ys = points.map(\.1)
    guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max(),
      [minX, maxX, minY, maxY].allSatisfy(\.isFinite)
    else { return (0, 0, 0, 0) }
    return (
      max(Int(saturating: (minX - margin).rounded(.down)), 0), max(Int(saturating: (minY - margin).rounded(.down)), 0),
      min(Int(saturating: (maxX + margin).rounded(.up)), width),
      min(Int(saturating: (maxY + margin).rounded(.up)), height)
    )
  }
}
