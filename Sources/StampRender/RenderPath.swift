/// What a JPEG's header says, as far as choosing how to render it goes.
struct JPEGFacts: Equatable, Sendable {
  /// The colour space the file declares.
  enum ColourSpace: Equatable, Sendable {
    case grayscale, yCbCr, rgb, cmyk, ycck, other
  }

  /// Stored size in pixels.
  var width: Int
  var height: Int
  var colourSpace: ColourSpace
  /// Bits per sample.
  var precision: Int
  var progressive: Bool
  var arithmetic: Bool
  /// Sampling factors, one entry per component.
  var sampling: [BlockMap.Sampling]
  /// MCUs per restart interval; 0 when the file has no restart markers.
  var restartInterval = 0
  /// False when a component's quantization table is missing or has a zero entry (a damaged file).
  var quantizationUsable = true
}

/// How one output is made: the DCT-domain JPEG transplant, or the general libvips path and why.
enum RenderPath: Equatable, Sendable, CustomStringConvertible {
  case transplant
  case libvips(Reason)

  /// Why a job takes the libvips path.
  enum Reason: Equatable, Sendable {
    /// The output is not a JPEG.
    case outputNotJPEG
    /// The job names a quality, which means re-encoding every block at it.
    case explicitQuality
    /// libjpeg cannot read the base's header (not a JPEG, or damaged): libvips reports the error.
    case baseNotJPEG
    /// Progressive files hold each block across several scans.
    case progressive
    /// Arithmetic coding: rare, and jpeg_write_coefficients would write it Huffman-coded anyway.
    case arithmetic
    /// Not 8-bit samples.
    case precision
    /// Not three-component YCbCr. CMYK and friends need libvips' colour handling; a grayscale JPEG cannot
    /// show a colour stamp, and the libvips path writes colour there.
    case colourSpace
    /// Luma sampling other than 1x1, 2x1, 2x2 or 1x2, or chroma not 1x1.
    case sampling
    /// More pixels than the renderer allows: the libvips path refuses it with its message.
    case tooLarge
    /// A quantization table is missing or has a zero entry, which libjpeg's encoder would divide by.
    case quantization
  }

  /// Luma sampling factors the transplant handles (with 1x1 chroma): 4:4:4, 4:2:2, 4:2:0 and 4:4:0.
  static let lumaSamplings: Set<BlockMap.Sampling> = [.init(1, 1), .init(2, 1), .init(2, 2), .init(1, 2)]

  /// Chooses the path for writing `output` from a base whose header says `base` (nil when libjpeg could not read
  /// it). `quality` is the job's explicit quality, nil when it asked for none. Pure: depends on nothing else.
  static func choose(output: OutputFormat, quality: Int?, base: JPEGFacts?, maxPixels: Int) -> RenderPath {
    guard output == .jpeg else { return .libvips(.outputNotJPEG) }
    guard quality == nil else { return .libvips(.explicitQuality) }
    guard let base else { return .libvips(.baseNotJPEG) }
    guard base.width * base.height <= maxPixels else { return .libvips(.tooLarge) }
    guard !base.progressive else { return .libvips(.progressive) }
    guard !base.arithmetic else { return .libvips(.arithmetic) }
    guard base.precision == 8 else { return .libvips(.precision) }
    guard base.colourSpace == .yCbCr, base.sampling.count == 3 else { return .libvips(.colourSpace) }
    guard base.quantizationUsable else { return .libvips(.quantization) }
    guard lumaSamplings.contains(base.sampling[0]), base.sampling[1...].allSatisfy({ $0 == .init(1, 1) }) else {
      return .libvips(.sampling)
    }
    return .transplant
  }

  var description: String {
    switch self {
    case .transplant: return "DCT-domain transplant"
    case .libvips(let reason): return "libvips (\(reason))"
    }
  }
}
