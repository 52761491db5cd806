import StampCore

/// A JSON value on its way to text: members in the order given, numbers already written by `JSONNumber`.
package indirect enum JSONText: Sendable {
  /// A number, `true`, `false` or `null`, as it is to appear.
  case literal(String)
  /// A string, escaped when written.
  case string(String)
  /// An array.
  case array([JSONText])
  /// An object; keys in this order.
  case object([(String, JSONText)])

  /// A number written exactly (`JSONNumber.exact`).
  package static func number(_ value: Double) -> JSONText { .literal(JSONNumber.exact(value)) }

  /// `[x, y]`.
  package static func pair(_ a: Double, _ b: Double) -> JSONText { .array([.number(a), .number(b)]) }

  /// The value on one line: `{"a": 1, "b": [2, 3]}`.
  package var inline: String {
    switch self {
    case .literal(let text): return text
    case .string(let s): return JSONString.quoted(s)
    case .array(let items): return "[" + items.map(\.inline).joined(separator: ", ") + "]"
    case .object(let members):
      return "{" + members.map { JSONString.quoted($0.0) + ": " + $0.1.inline }.joined(separator: ", ") + "}"
    }
  }

  /// The value laid out for reading: what fits in `width` columns stays on one line, the rest opens one member or
  /// item per line, indented two spaces more than `indent`; `lead` is how much of the line comes before the value.
  package func pretty(indent: Int = 0, lead: Int = 0, width: Int = 120) -> String {
    let flat = inline
    if indent + lead + flat.count <= width { return flat }
    let inner = String(repeating: " ", count: indent + 2)
    let close = String(repeating: " ", count: indent)
    switch self {
    case .literal, .string:
      return flat
    case .array(let items):
      let lines = items.map { inner + $0.pretty(indent: indent + 2, width: width) }
      return "[\n" + lines.joined(separator: ",\n") + "\n" + close + "]"
    case .object(let members):
      let lines = members.map { member in
        let key = JSONString.quoted(member.0) + ": "
        return inner + key + member.1.pretty(indent: indent + 2, lead: key.count, width: width)
      }
      return "{\n" + lines.joined(separator: ",\n") + "\n" + close + "}"
    }
  }
}
