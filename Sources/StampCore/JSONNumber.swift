/// The one way stampcam writes a number into JSON: `explain`, `--report`, `schema` and `import` all go through
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
}
