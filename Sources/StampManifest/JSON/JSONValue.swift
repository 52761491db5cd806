/// A JSON value together with where it starts in its document, so that errors can name a line.
package struct JSONValue: Sendable, Hashable {
  /// The kinds of JSON value, with their contents.
  package enum Kind: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number; JSON does not tell integers apart, so every number is a `Double` (`1e999` parses as infinity).
    case number(Double)
    /// A string, with its escapes decoded.
    case string(String)
    /// An array, in document order.
    case array([JSONValue])
    /// An object's members, in document order.
    case object([JSONMember])
  }

  /// What the value is.
  package var kind: Kind
  // 32-bit positions keep the tree small: a touch trace is mostly numbers.
  private var line32: Int32
  private var column32: Int32

  /// The 1-based line where the value starts.
  package var line: Int { Int(line32) }
  /// The 1-based column (in UTF-8 bytes) where the value starts.
  package var column: Int { Int(column32) }

  /// Creates a value located at `line` and `column`.
  package init(_ kind: Kind, line: Int, column: Int) {
    self.kind = kind
    line32 = Int32(clamping: line)
    column32 = Int32(clamping: column)
  }

  /// A short phrase naming the value's type, for messages: `a string`, `an array`.
  package var typeName: String {
    switch kind {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// The member named `key` if the value is an object that has one (the first, if several).
  package subscript(key: String) -> JSONValue? {
    guard case .object(let members) = kind else { return nil }
    return members.first { $0.key == key }?.value
  }
}

/// One `"key": value` pair of a JSON object.
package struct JSONMember: Sendable, Hashable {
  /// The key, with its escapes decoded.
  package var key: String
  /// The value.
  package var value: JSONValue

  /// Creates a member.
  package init(key: String, value: JSONValue) {
    self.key = key
    self.value = value
  }
}
