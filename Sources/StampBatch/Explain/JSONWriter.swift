import StampCore
import StampManifest

/// A small JSON writer for stampcam's outputs (explain, reports): keys in the order given, numbers rounded to
/// a millionth so that float noise does not show.
enum JSON {
  indirect enum Value {
    case number(Double)
    case string(String)
    case bool(Bool)
    case null
    case array([Value])
    case object([(String, Value)])
  }

  static func render(_ value: Value) -> String {
    var out = ""
    write(value, into: &out)
    return out
  }

  private static func write(_ value: Value, into out: inout String) {
    switch value {
    case .number(let n): out += number(n)
    case .string(let s): out += quote(s)
    case .bool(let b): out += b ? "true" : "false"
    case .null: out += "null"
    case .array(let items):
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += ", " }
        write(item, into: &out)
      }
      out += "]"
    case .object(let pairs):
      out += "{"
      for (i, (key, item)) in pairs.enumerated() {
        if i > 0 { out += ", " }
        out += quote(key) + ": "
        write(item, into: &out)
      }
      out += "}"
    }
  }

  /// Rounded to a millionth, by the one formatter every JSON output uses; NaN and infinities become null.
  static func number(_ n: Double) -> String { JSONNumber.text(n, places: 6) }

  static func quote(_ s: String) -> String { JSONString.quoted(s) }
}
