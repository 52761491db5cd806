/// Numbers as stampcam writes them into JSON: plain decimals, never exponents, and `null` for what JSON cannot hold.
package enum JSONNumber {
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

  /// `value` rounded to `places` decimal places, as a plain decimal with no trailing zeros (`-0` is `0`).
  package static func rounded(_ value: Double, places: Int) -> String {
    guard value.isFinite else { return "null" }
    var scale: Int64 = 1
    for _ in 0..<places { scale *= 10 }
    let scaled = (value * Double(scale)).rounded()
    guard abs(scaled) < 9e15 else {
      // Beyond 2^53 a Double has no fraction left to print; its integer part is exact.
      return abs(value) < 9e18 ? String(Int64(value.rounded())) : "null"
    }
    let units = Int64(scaled)
    if units == 0 { return "0" }
    let magnitude = units.magnitude
    let whole = magnitude / UInt64(scale)
    var fraction = String(magnitude % UInt64(scale))
    var text = (units < 0 ? "-" : "") + String(whole)
    if fraction != "0" {
      fraction = String(repeating: "0", count: places - fraction.count) + fraction
      while fraction.hasSuffix("0") { fraction.removeLast() }
      text += "." + fraction
    }
    return text
  }
}
