import StampCore

/// A JSON value to print: the schema is built as a tree, then rendered with two-space indentation.
indirect enum SchemaNode {
  case object([(String, SchemaNode)])
  case array([SchemaNode])
  case string(String)
  case number(Double)
  case bool(Bool)

  /// The value as pretty-printed JSON.
  func rendered(indent: String = "") -> String {
    let inner = indent + "  "
    switch self {
    case .object(let members):
      if members.isEmpty { return "{}" }
      let lines = members.map { inner + Self.quoted($0.0) + ": " + $0.1.rendered(indent: inner) }
      return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
    case .array(let items):
      if items.allSatisfy({ if case .string = $0 { true } else { false } }) {
        return "[" + items.map { $0.rendered() }.joined(separator: ", ") + "]"
      }
      return "[\n" + items.map { inner + $0.rendered(indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
    case .string(let s): return Self.quoted(s)
    case .number(let x): return JSONNumber.text(x)
    case .bool(let b): return b ? "true" : "false"
    }
  }

  static func quoted(_ s: String) -> String { JSONString.quoted(s) }
}
