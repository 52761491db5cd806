import StampCore

/// Writes touch events as the manifest's `touches` gesture item.
///
/// The output is `{"touches": [...]}` with one event per line, each `{"t", "id", "phase", "x", "y"}`. Numbers are
/// plain decimals, never exponents: `t` rounded to 6 decimal places (microseconds, getevent's resolution), `x` and
/// `y` to 3 (a thousandth of a point), trailing zeros dropped, so `0.00001` stays `0.00001` and `200.0` is `200`.
public enum TouchesJSON {
  /// The JSON text of the `touches` item holding `events`, without a trailing newline.
  ///
  /// A non-finite number cannot be written in JSON and is written as `null`, which manifest validation reports.
  public static func render(_ events: [TouchEvent]) -> String {
    guard !events.isEmpty else { return "{\"touches\": []}" }
    let lines = events.map { event in
      "  {\"t\": \(decimal(event.t, places: 6)), \"id\": \(event.id), \"phase\": \"\(event.phase.rawValue)\", "
        + "\"x\": \(decimal(event.location.x, places: 3)), \"y\": \(decimal(event.location.y, places: 3))}"
    }
    return "{\"touches\": [\n" + lines.joined(separator: ",\n") + "\n]}"
  }

  /// `value` rounded to `places` decimal places, as a plain decimal with no trailing zeros (`-0` is `0`).
  static func decimal(_ value: Double, places: Int) -> String {
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
