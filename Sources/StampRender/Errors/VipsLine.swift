/// What one line of libvips' error text says, read here once.
///
/// libvips tells a failed load, decode or save only in words, in its error buffer: no code, and no domain but the
/// words before the first colon. This initializer is the one place stampcam reads those words; everything else
/// decides on its fields. (A refusal of stampcam's own loader is a code, `RenderError.Refusal`, not text.)
struct VipsLine: Equatable {
  /// The line as libvips wrote it.
  let text: String
  /// No loader knows the file ("... is not a known file format").
  let unknownFormat: Bool
  /// The sample precision libjpeg refused, in bits ("12"), nil when the line says nothing of it.
  let jpegPrecision: Substring?
  /// The data ends early: libjpeg's "premature end", libpng's "not enough data", libtiff's "unexpected end"...
  let truncated: Bool
  /// libvips' bookkeeping around a decoder's own words ("error in tile", "read gave", "load failed"): no detail.
  let bookkeeping: Bool
  /// Written by a loader (its domain, before the first colon): in a save's text, some input's failure, maybe
  /// another job's.
  let fromLoader: Bool
  /// Names one of stampcam's temporary files: in a save's text, maybe another job's output.
  let namesTemporary: Bool

  init(_ text: String) {
    self.text = text
    let lower = text.lowercased()
    unknownFormat = lower.contains("is not a known file format")
    jpegPrecision = lower.range(of: "unsupported jpeg data precision ").map {
      lower[$0.upperBound...].prefix { $0.isNumber }
    }
    truncated = ["premature end", "not enough data", "unexpected end", "truncated", "end of file"].contains {
      lower.contains($0)
    }
    bookkeeping = ["error in tile", "read gave", "libpng read error", "load failed"].contains { lower.contains($0) }
    if let colon = lower.firstIndex(of: ":") {
      let domain = lower[..<colon]
      fromLoader =
        domain.contains("load") || domain.hasSuffix("2vips") || ["vipsjpeg", "vipspng", "webp"].contains(domain)
    } else {
      fromLoader = false
    }
    namesTemporary = text.contains(".stampcam-")
  }
}
