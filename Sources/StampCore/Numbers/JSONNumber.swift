/// The one way stampcam writes a number into JSON (rounded with `text`, or exactly with `exact`): `explain`, `--report`, `schema` and `import` all go through
/// it, so none of them can write `inf`, `nan` or a number another JSON reader refuses.
///
/// It lives in StampCore, which imports nothing (so no `String(format:)`), because every module that writes JSON
/// depends on it.
package enum JSONNumber {
  /// `value` rounded to `places` decimal places (0...15) as a plain decimal without trailing zeros (`-0` is `0`):
  /// `0.00001` stays `0.00001`, `200.0` is `200`. A number too large to keep a fraction after rounding is written
  /// whole, exactly; past what Int64 holds, in the shortest exponent form that reads back as the same double
  /// (`1e+20`), which JSON allows. NaN and the infinities, which JSON cannot hold, are `null`.
  package static func text(_ value: Double, places: Int = 6) -> String {
    guard value.isFinite else { return "null" }
    let places = min(max(places, 0), 15)
    var scale: Int64 = 1
    for _ in 0..<places { scale *= 10 }
    let scaled = (value * Double(scale)).rounded()
    // Below 2^53 the scaled number is an exact integer; beyond it a double has no fraction left to print.
    guard abs(scaled) < 9e15 else {
      let whole = value.rounded()
      return abs(whole) < 9e18 ? String(Int64(whole)) : "\(whole)"
    }
    let units = Int64(scaled)
    if units == 0 { return "0" }
    let magnitude = units.magnitude
    let whole = magnitude / UInt64(scale)
    var text = (units < 0 ? "-" : "") + String(whole)
    var fraction = String(magnitude % UInt64(scale))
    if fraction != "0" {
      fraction = String(repeating: "0", count: places - fraction.count) + fraction
      while fraction.hasSuffix("0") { fraction.removeLast() }
      text += "." + fraction
    }
    return text
  }

  /// The shortest plain decimal that reads back as exactly `value` (`200`, `0.1`, `0.00001`; `-0` is `0`).
  package static func exact(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value == 0 { return "0" }
    // Swift prints the shortest digits that round-trip, sometimes with an exponent: move the point instead.
    let text = "\(value.magnitude)"
    let parts = text.split(separator: "e", maxSplits: 1)
    let mantissa = parts[0]
    let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
    var digits = mantissa.filter { $0 != "." }
    var point =
      (mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) }
        ?? mantissa.count) + exponent
    if point <= 0 {
      digits = String(repeating: "0", count: 1 - point) + digits
      point = 1
    } else if point > digits.count {
      digits += String(repeating: "0", count: point - digits.count)
    }
    var whole = String(digits.prefix(point))
    var fraction = String(digits.dropFirst(point))
    while fraction.hasSuffix("0") { fraction.removeLast() }
    while whole.count > 1 && whole.hasPrefix("0") { whole.removeFirst() }
    return (value < 0 ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + fraction)
  }
}
