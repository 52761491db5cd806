import StampCore
import StampManifest

/// stampcam's own outputs (explain, the report) are written with the manifest writer's tree, `JSONText`, on one
/// line: keys in the order given, numbers rounded to a millionth so that float noise does not show.
extension JSONText {
  /// `n` rounded to a millionth, by the one formatter every JSON output uses; NaN and infinities become null.
  package static func rounded(_ n: Double) -> JSONText { .literal(JSONNumber.text(n, places: 6)) }

  /// `true` or `false`.
  static func bool(_ b: Bool) -> JSONText { .literal(b ? "true" : "false") }

  /// `null`.
  package static let null = JSONText.literal("null")
}
