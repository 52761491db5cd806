/// A JSON value of unknown shape, decoded with `JSONDecoder` so that `true` and `1` stay apart on every platform
/// (`JSONSerialization` hands both back as numbers on some).
enum JSONValue: Decodable, Sendable, Hashable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  /// The members of an object, or nil.
  var object: [String: JSONValue]? {
    if case .object(let members) = self { return members }
    return nil
  }

  /// The elements of an array, or nil.
  var array: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }

  /// A string's text, or nil.
  var string: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// A finite number, or nil (also for a boolean).
  var number: Double? {
    if case .number(let value) = self, value.isFinite { return value }
    return nil
  }
}
