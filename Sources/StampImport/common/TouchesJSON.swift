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
    var item = Item()
    for event in events { item.append(item.line(event)) }
    return item.text
  }

  /// The item built one event at a time, as `stampcam import` streams it.
  package struct Item {
    private let writer = ManifestWriter(roundsTouches: true)
    private var lines = ""

    /// An item with no event yet.
    package init() {}

    /// The JSON object of one event, on one line.
    package func line(_ event: TouchEvent) -> String { writer.touch(event).inline }

    /// Adds an event's `line`.
    package mutating func append(_ line: String) {
      lines += (lines.isEmpty ? "{\"touches\": [\n  " : ",\n  ") + line
    }

    /// The item's text so far, without a trailing newline.
    package var text: String { lines.isEmpty ? "{\"touches\": []}" : lines + "\n]}" }
  }

  /// `value` rounded to `places` decimal places, as a plain decimal with no trailing zeros (`-0` is `0`), by the
  /// one formatter every JSON output uses.
  static func decimal(_ value: Double, places: Int) -> String { JSONNumber.text(value, places: places) }
}
