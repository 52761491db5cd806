import StampCore

/// Where libvips' Lanczos reduce (`vips_reduce`, which the renderer runs before the affine when a stamp shrinks
/// hard) puts the points of its input.
///
/// libvips 8.14 (reduceh.cpp, reducev.cpp) makes round(n / shrink) pixels of n and scales by exactly `shrink` about
/// the image's centre: it shifts its sampling by half the pixels it invents (or drops) rounding the size. In
/// continuous coordinates (pixel i covers [i, i + 1)) an input point u lands at
/// (u - n / 2) / shrink + round(n / shrink) / 2. The reduced size is not n / shrink, so taking the reduced centre
/// to be the centre divided by the factor moves a stamp by up to a quarter of a reduced pixel on each axis.
struct Reduction {
  /// The factors handed to libvips (each at least 1; 1 leaves that axis alone).
  var hshrink: Double, vshrink: Double
  /// The input's size in pixels.
  var from: (width: Int, height: Int)
  /// The reduced image's size in pixels, as libvips made it.
  var to: (width: Int, height: Int)

  /// The pixels libvips 8.14 makes of `n` reduced by `shrink` (at least 1): `VIPS_ROUND_UINT(n / shrink)`, that is
  /// (int) (n / shrink + 0.5), in reduceh.cpp and reducev.cpp alike, whatever the kernel (`ReductionTests` checks
  /// it against libvips).
  static func reducedLength(_ n: Int, by shrink: Double) -> Int {
    Int(saturating: (Double(n) / shrink + 0.5).rounded(.towardZero))
  }

  /// The input point `p` (continuous coordinates) in the reduced image's continuous coordinates.
  func map(_ p: StampPoint) -> StampPoint {
    StampPoint(
      (p.x - Double(from.width) / 2) / hshrink + Double(to.width) / 2,
      (p.y - Double(from.height) / 2) / vshrink + Double(to.height) / 2)
  }
}

extension Reduction {
  /// The reduction of an image of `from` pixels, the reduced size worked out as libvips works it out (see
  /// `reducedLength`), without building the reduce: its Lanczos masks take 0.5-1.5 ms to make.
  init(hshrink: Double, vshrink: Double, from: (width: Int, height: Int)) {
    self.init(
      hshrink: hshrink, vshrink: vshrink, from: from,
      to: (Self.reducedLength(from.width, by: hshrink), Self.reducedLength(from.height, by: vshrink)))
  }
}
