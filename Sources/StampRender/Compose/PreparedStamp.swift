import StampCore
import Synchronization

/// A stamp decoded once, in sRGB with alpha, premultiplied (8-bit), held in memory: at its own size, or shrunk on
/// load by a whole `shrink` (see `StampShrink`).
final class PreparedStamp: Sendable {
  let image: Image
  /// The stamp's upright size in the file's pixels, whatever `shrink`.
  let pixelSize: StampSize
  /// The pixels that are not wholly transparent (nil when none is), in `image`'s pixels: what the stamp can draw.
  /// Icons and stickers often have a transparent margin, a third of their area in the benchmark's; resampling and
  /// compositing keep to the part that shows.
  let content: GridRect?
  /// Each pixel of `image` averages `shrink` x `shrink` of the file's (1: the file's own pixels).
  let shrink: Int
  /// Which decode this is, counted over the process: a file replaced during a batch is decoded again, and what was
  /// made from the older decode (a kept transformed layer) must not be taken for the new one's.
  let decode: UInt64

  private static let decodes = Atomic<UInt64>(0)

  init(image: Image, content: GridRect?, pixelSize: StampSize? = nil, shrink: Int = 1) {
    self.image = image
    self.content = content
    self.pixelSize = pixelSize ?? StampSize(Double(image.width), Double(image.height))
    self.shrink = shrink
    decode = Self.decodes.add(1, ordering: .relaxed).newValue
  }

  /// The file's continuous point `p` (upright) in `image`'s continuous coordinates: the shrink pads the file to
  /// whole blocks on the sides that end up right and bottom, so a point only divides by the factor.
  func map(_ p: StampPoint) -> StampPoint {
    StampPoint(p.x / Double(shrink), p.y / Double(shrink))
  }

  /// The smallest rectangle holding every sample of `alpha` (row by row, `width` x `height`) that is not 0.
  static func bounds(ofNonZero alpha: [UInt8], width: Int, height: Int) -> GridRect? {
    var (left, top, right, bottom) = (width, height, 0, 0)
    alpha.withUnsafeBufferPointer { samples in
      for y in 0..<height {
        let row = y * width
        guard let first = (0..<width).first(where: { samples[row + $0] != 0 }) else { continue }
        let last = (first..<width).last(where: { samples[row + $0] != 0 }) ?? first
        left = min(left, first)
        right = max(right, last + 1)
        top = min(top, y)
        bottom = y + 1
      }
    }
    return GridRect(left: left, top: top, right: right, bottom: bottom)
  }
}
