import Foundation
import StampCore
import Synchronization

/// How much smaller than its file a stamp may be decoded for the size it is drawn at.
///
/// A stamp drawn 50 px wide from an 8000 x 8000 file needs a few hundred of its pixels across, not 8000: the
/// file is read top to bottom once and averaged in blocks of `factor` x `factor` as it is read (libvips' shrink),
/// so only the small image is held. The factor is a power of two (stamps drawn at nearby sizes share one decode)
/// that leaves at least `margin` decoded pixels for each pixel drawn along the direction the stamp is stretched
/// most, so the resampling that follows (Lanczos, then the bicubic affine) still starts from more pixels than it
/// draws. Block averages of premultiplied pixels are exact areas of the file: a point u of the file is u / factor
/// in the shrunk image, and the placement stays exact.
enum StampShrink {
  /// Decoded pixels kept for each pixel drawn, at least.
  static let margin = 4.0

  /// The factor for a stamp of `size` file pixels (upright) whose linear map to the output is `linear`
  /// ([a b; c d], output pixels per file pixel): the largest power of two f with f <= 1 / (margin * s), s the
  /// map's largest stretch, and at most the stamp's smaller side (so at least a pixel is left).
  static func factor(size: StampSize, linear: (Double, Double, Double, Double)) -> Int {
    let stretch = largestStretch(linear)
    guard stretch.isFinite, stretch > 0 else { return 1 }
    let limit = min(1 / (margin * stretch), size.width, size.height)
    var factor = 1
    while Double(factor * 2) <= limit, factor < 1 << 20 { factor *= 2 }
    return factor
  }

  /// The largest singular value of [a b; c d]: how many output pixels one file pixel becomes along the direction
  /// stretched most.
  static func largestStretch(_ m: (Double, Double, Double, Double)) -> Double {
    let (a, b, c, d) = m
    let sum = (a * a + b * b + c * c + d * d) / 2
    let determinant = a * d - b * c
    return (sum + (max(sum * sum - determinant * determinant, 0)).squareRoot()).squareRoot()
  }

  /// Which stored sides the shrink pads to whole blocks at their start (left, top) rather than their end, so that
  /// after EXIF `orientation` turns the small image upright the padding lies right and bottom. The sides whose
  /// axis the orientation reverses: stored x for 2, 3 (mirrored, turned 180) and 7, 8 (upright y runs against
  /// stored x); stored y for 3, 4 and 6, 7 (upright x runs against stored y).
  static func padsAtStart(orientation: Int) -> (left: Bool, top: Bool) {
    ([2, 3, 7, 8].contains(orientation), [3, 4, 6, 7].contains(orientation))
  }

  /// The part of `factor` libjpeg's scaled decoding takes for a JPEG of `width` x `height`: the largest of 8, 4, 2
  /// dividing the factor and both sides (so its pixels cover whole, aligned blocks of the file's), else 1.
  static func jpegPart(of factor: Int, width: Int, height: Int) -> Int {
    [8, 4, 2].first { factor % $0 == 0 && width % $0 == 0 && height % $0 == 0 } ?? 1
  }

  /// The pixels a stamp of `width` x `height` file pixels holds decoded at `factor`.
  static func decodedPixels(width: Int, height: Int, factor: Int) -> Int {
    let f = max(factor, 1)
    return ((width + f - 1) / f).multipliedReportingOverflow(by: (height + f - 1) / f).partialValue
  }
}

/// What the stamps of one job may decode, in pixels: each stamp file at each shrink it is drawn at counts once,
/// whether the stamp cache already holds it or not (so a job's fate does not depend on the jobs before it).
package final class StampBudget: Sendable {
  /// The most pixels the job's stamps may decode to, in all.
  package let limit: Int
  private let state = Mutex((charged: Set<[UInt8]>(), total: 0))

  /// A budget of `limit` decoded pixels for one job.
  package init(limit: Int) {
    self.limit = limit
  }

  /// The pixels charged so far.
  var total: Int { state.withLock { $0.total } }

  /// Counts `pixels` for `path` decoded at `factor` (once per pair), or throws when the job would pass `limit`.
  func charge(_ path: String, factor: Int, pixels: Int, stamp id: String) throws {
    let over = state.withLock { state -> Int? in
      // Paths compared byte for byte: two spellings of one name in Unicode are two files.
      guard state.charged.insert(Array("\(factor)/\(path)".utf8)).inserted else { return nil }
      let (sum, overflow) = state.total.addingReportingOverflow(pixels)
      state.total = overflow ? Int.max : sum
      return state.total > limit ? state.total : nil
    }
    if let over {
      throw RenderError.operation(
        path: path, operation: "draw stamp \(id)",
        message:
          "the job's stamps would decode to \(over) pixels, over the limit of \(limit) a job (--max-pixels; each "
          + "stamp counts at the size it is decoded, down to four times its drawn size, once for each size)")
    }
  }
}
