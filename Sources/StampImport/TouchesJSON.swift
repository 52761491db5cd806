import StampCore
import StampManifest

/// Writes touch events as the manifest's `touches` gesture item.
///
/// The output is `{"touches": [...]}` with one event per line, each `{"t", "id", "phase", "x", "y"}`. Numbers are
/// plain decimals (no exponent short of 9e18, far past any screen): `t` rounded to 6 decimal places (microseconds,
/// getevent's resolution), `x` and `y` to 3 (a thousandth of a point), trailing zeros dropped, so `0.00001` stays
/// `0.00001` and `200.0` is `200`.
package enum TouchesJSON {
  /// The JSON text of the `touches` item holding `events`, without a trailing newline.
  ///
  /// A non-finite number cannot be written in JSON and is written as `null`, which manifest validation reports.
  package static func render(_ events: [TouchEvent]) -> String {
    guard !events.isEmpty else { return "{\"touches\": []}" }
    let writer = ManifestWriter(roundsTouches: true)
    let lines = events.map { "  " + writer.touch($0).inline }
    return "{\"touches\": [\n" + lines.joined(separator: ",\n") + "\n]}"
  }

  /// `value` rounded to `places` decimal places, as a plain decimal with no trailing zeros (`-0` is `0`), by the
  /// one formatter every JSON output uses.
  static func decimal(_ value: Double, places: Int) -> String { JSONNumber.text(value, places: places) }
}
