import Foundation
import StampCore

extension BlockMap {
  /// Pixels of slack around a stamp's outline: the interpolator reaches one pixel out, and the renderer's box
  /// rounds outwards and may follow a Lanczos-reduced source that is a fraction of a pixel larger.
  static let footprintSlack = 2.0

  /// The pixels of the frame `map` leads to that drawing `placement` may change: its outline (size x scale, turned
  /// clockwise by its rotation about its centre) carried through `map`, grown by `footprintSlack`, cut to
  /// `width` x `height`; nil when it lies wholly outside or its numbers are not finite.
  static func footprint(of placement: PlacedStamp, map: PlaneMap, width: Int, height: Int) -> GridRect? {
    let halfWidth = placement.size.width * placement.scale / 2
    let halfHeight = placement.size.height * placement.scale / 2
    let radians = placement.rotation * .pi / 180
    let (cosine, sine) = (cos(radians), sin(radians))
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    for (u, v) in [
      (-halfWidth, -halfHeight), (halfWidth, -halfHeight), (-halfWidth, halfHeight), (halfWidth, halfHeight),
    ] {
      let upright = Point(placement.center.x + cosine * u - sine * v, placement.center.y + sine * u + cosine * v)
      let p = map.apply(upright)
      minX = min(minX, p.x)
      maxX = max(maxX, p.x)
      minY = min(minY, p.y)
      maxY = max(maxY, p.y)
    }
    guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return nil }
    let left = max(minX - footprintSlack, 0).rounded(.down)
    let top = max(minY - footprintSlack, 0).rounded(.down)
    let right = min(maxX + footprintSlack, Double(width)).rounded(.up)
    let bottom = min(maxY + footprintSlack, Double(height)).rounded(.up)
    guard right > left, bottom > top else { return nil }
    return GridRect(left: Int(left), top: Int(top), right: Int(right), bottom: Int(bottom))
  }
}
