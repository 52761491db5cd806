/// How one output is made: edited in the DCT domain (whole, or by restart intervals), or as pixels by libvips, and
/// why.
package enum RenderPath: Equatable, Sendable, CustomStringConvertible {
  /// Every coefficient of the photo read, the blocks under the stamps redrawn, the file written in its own coding
  /// (see `JPEGTransplant`).
  case transplant
  /// Only the restart intervals under the stamps decoded and encoded again, every other one copied byte for byte.
  case restartIntervals
  /// Only the MCUs under the stamps decoded and encoded again, every other one copied as bits from the photo's scan
  /// (a baseline photo without restart markers).
  case spliced
  /// The photo decoded, composited and encoded again by libvips.
  case libvips(Reason)

  /// Why a job takes the libvips path.
  package enum Reason: Equatable, Sendable {
    /// The output is not a JPEG.
    case outputNotJPEG
    /// The job names a quality, which means re-encoding every block at it.
    case explicitQuality
    /// The base does not start like a JPEG.
    case baseNotJPEG
    /// More pixels than the renderer allows: the libvips path refuses it with its message.
    case tooLarge
    /// Not 8-bit samples (libjpeg reads 12-bit ones through another interface).
    case precision
    /// CMYK, YCCK or an unknown colour space: libjpeg cannot turn it into RGB to draw on, and the libvips path
    /// converts it with its profile.
    case colourSpace
    /// Sampling factors whose ratios are not whole numbers: libjpeg cannot upsample them.
    case sampling
    /// A quantization table is missing or has a zero entry, which libjpeg's encoder would divide by.
    case quantization
    /// libjpeg failed on the file (its message): damaged or truncated data, or something it does not support.
    case damaged(String)
  }

  /// Chooses the path for writing `output` from a base whose header says `base` (nil when it does not start like
  /// a JPEG). `quality` is the job's explicit quality, nil when it asked for none. Pure: depends on nothing else.
  static func choose(output: OutputFormat, quality: Int?, base: JPEGFacts?, maxPixels: Int) -> RenderPath {
    guard output == .jpeg else { return .libvips(.outputNotJPEG) }
    guard quality == nil else { return .libvips(.explicitQuality) }
    guard let base else { return .libvips(.baseNotJPEG) }
    guard base.width * base.height <= maxPixels else { return .libvips(.tooLarge) }
    guard base.precision == 8 else { return .libvips(.precision) }
    // libjpeg turns grey, YCbCr and RGB-coded blocks into RGB and back; a grey photo stays grey.
    let components = base.colourSpace == .grayscale ? 1 : 3
    guard [.grayscale, .yCbCr, .rgb].contains(base.colourSpace), base.sampling.count == components else {
      return .libvips(.colourSpace)
    }
    guard base.quantizationUsable else { return .libvips(.quantization) }
    let (maxH, maxV) = (base.sampling.map(\.h).max() ?? 1, base.sampling.map(\.v).max() ?? 1)
    guard base.sampling.allSatisfy({ $0.h > 0 && $0.v > 0 && maxH % $0.h == 0 && maxV % $0.v == 0 }) else {
      return .libvips(.sampling)
    }
    return .transplant
  }

  /// The report's name for the path: "lossless", "restart-intervals", "spliced" or "pixels".
  package var name: String {
    switch self {
    case .transplant: return "lossless"
    case .restartIntervals: return "restart-intervals"
    case .spliced: return "spliced"
    case .libvips: return "pixels"
    }
  }

  /// Why a JPEG photo written as JPEG with no quality fell back to pixels ("colour-space", "precision",
  /// "sampling", "quantization", or "damaged: " and libjpeg's message); nil when it did not, or when the job never
  /// asked for the lossless path (another format, a quality, a base that is no JPEG).
  package var fallback: String? {
    guard case .libvips(let reason) = self else { return nil }
    switch reason {
    case .outputNotJPEG, .explicitQuality, .baseNotJPEG, .tooLarge: return nil
    case .precision: return "precision"
    case .colourSpace: return "colour-space"
    case .sampling: return "sampling"
    case .quantization: return "quantization"
    case .damaged(let message): return "damaged: \(message)"
    }
  }

  package var description: String {
    switch self {
    case .transplant: return "DCT-domain transplant"
    case .restartIntervals: return "DCT-domain transplant by restart intervals"
    case .spliced: return "DCT-domain transplant spliced into the photo's scan"
    case .libvips(let reason): return "libvips (\(reason))"
    }
  }
}
