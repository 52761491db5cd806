/// Which restart intervals of a JPEG to decode and encode again when stamps touch some of its MCU rows.
///
/// Every interval holds `interval` MCUs, row after row. A span given to libjpeg as a JPEG of its own has to start
/// at the start of an MCU row that is also the start of an interval, and end likewise (or at the photo's end):
/// rows in steps of interval / gcd(interval, MCUs per row).
struct RestartSpans: Equatable {
  struct Span: Equatable {
    /// MCU rows.
    var rows: Range<Int>
    /// The intervals that hold them.
    var firstInterval: Int
    var intervals: Int
  }

  var spans: [Span]

  /// Spans covering `rows` (MCU row ranges) in a photo of `mcusWide` x `mcusHigh` MCUs with restart intervals of
  /// `interval` MCUs; nil when they would cover every row, and copying intervals would save nothing.
  init?(rows: [Range<Int>], mcusWide: Int, mcusHigh: Int, interval: Int) {
    guard interval > 0, mcusWide > 0, mcusHigh > 0 else { return nil }
    let step = interval / Self.gcd(interval, mcusWide)
    let total = (mcusWide * mcusHigh + interval - 1) / interval
    let aligned =
      rows
      .filter { !$0.isEmpty }
      .map { ($0.lowerBound / step * step)..<min(($0.upperBound + step - 1) / step * step, mcusHigh) }
      .sorted { $0.lowerBound < $1.lowerBound }
    var merged: [Range<Int>] = []
    for range in aligned {
      if let last = merged.last, range.lowerBound <= last.upperBound {
        merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
      } else {
        merged.append(range)
      }
    }
    guard !merged.isEmpty, merged.reduce(0, { $0 + $1.count }) < mcusHigh else { return nil }
    spans = merged.map { range in
      let first = range.lowerBound * mcusWide / interval
      let end = range.upperBound == mcusHigh ? total : range.upperBound * mcusWide / interval
      return Span(rows: range, firstInterval: first, intervals: end - first)
    }
  }

  private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
