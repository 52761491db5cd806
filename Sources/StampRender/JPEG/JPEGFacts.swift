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

  /// True when some component has fewer samples than another (4:2:0, 4:2:2, 4:1:1...).
  var isSubsampled: Bool { Set(sampling).count > 1 }
}
