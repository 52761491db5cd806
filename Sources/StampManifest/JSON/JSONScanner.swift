/// The parser's cursor over the document's bytes; one instance parses one document.
struct JSONScanner {
  let bytes: UnsafeRawPointer
  let count: Int
  let maxDepth: Int
  let keepDuplicates: Bool
  var index = 0
  var line = 1
  var lineStart = 0

  init(bytes: UnsafeRawPointer, count: Int, maxDepth: Int, keepDuplicates: Bool) {
    self.bytes = bytes
    self.count = count
    self.maxDepth = maxDepth
    self.keepDuplicates = keepDuplicates
  }

  @inline(__always) func byte(_ offset: Int) -> UInt8 {
    bytes.load(fromByteOffset: offset, as: UInt8.self)
  }

  mutating func document() throws(JSONParseFailure) -> JSONValue {
    if count >= 3 && byte(0) == 0xEF && byte(1) == 0xBB && byte(2) == 0xBF {
      index = 3
      lineStart = 3
    }
    skipWhitespace()
    let value = try value(depth: 0)
    skipWhitespace()
    if index < count { throw failure("unexpected \(describe(byte(index))) after the json value") }
    return value
  }

  @inline(__always) mutating func skipWhitespace() {
    while index < count {
      let b = byte(index)
      if b == 0x20 || b == 0x09 || b == 0x0D {
        index += 1
      } else if b == 0x0A {
        index += 1
        line += 1
        lineStart = index
      } else {
        return
      }
    }
  }

  /// Parses the value at the cursor; `depth` counts the arrays and objects around it.
  mutating func value(depth: Int) throws(JSONParseFailure) -> JSONValue {
    guard index < count else { throw failure("invalid json: unexpected end of input, expected a value") }
    let line = self.line
    let column = index - lineStart + 1
    let kind: JSONValue.Kind
    switch byte(index) {
    case UInt8(ascii: "{"): kind = .object(try object(depth: depth + 1))
    case UInt8(ascii: "["): kind = .array(try array(depth: depth + 1))
    case UInt8(ascii: "\""):
      index += 1
      kind = .string(try string())
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): kind = .number(try number())
    case UInt8(ascii: "t"): kind = try literal("true", .bool(true))
    case UInt8(ascii: "f"): kind = try literal("false", .bool(false))
    case UInt8(ascii: "n"): kind = try literal("null", .null)
    case UInt8(ascii: "]"), UInt8(ascii: "}"):
      throw failure("invalid json: unexpected \(describe(byte(index))), expected a value (trailing comma?)")
    case let b: throw failure("invalid json: unexpected \(describe(b)), expected a value")
    }
    return JSONValue(kind, line: line, column: column)
  }

  mutating func array(depth: Int) throws(JSONParseFailure) -> [JSONValue] {
    if depth > maxDepth { throw failure("json nested deeper than \(maxDepth) levels") }
    index += 1
    skipWhitespace()
    var items: [JSONValue] = []
    if index < count && byte(index) == UInt8(ascii: "]") {
      index += 1
      return items
    }
    while true {
      items.append(try value(depth: depth))
      skipWhitespace()
      guard index < count else { throw failure("invalid json: unexpected end of input, expected ',' or ']'") }
      switch byte(index) {
      case UInt8(ascii: ","):
        index += 1
        skipWhitespace()
      case UInt8(ascii: "]"):
        index += 1
        return items
      case let b: throw failure("invalid json: expected ',' or ']' after an array element, found \(describe(b))")
      }
    }
  }

  mutating func object(depth: Int) throws(JSONParseFailure) -> [JSONMember] {
    if depth > maxDepth { throw failure("json nested deeper than \(maxDepth) levels") }
    index += 1
    skipWhitespace()
    var members: [JSONMember] = []
    var seen: Set<String>? = nil
    if index < count && byte(index) == UInt8(ascii: "}") {
      index += 1
      return members
    }
    while true {
      guard index < count else { throw failure("invalid json: unexpected end of input, expected a key") }
      guard byte(index) == UInt8(ascii: "\"") else {
        throw failure("invalid json: expected a string key, found \(describe(byte(index)))")
      }
      let keyColumn = index - lineStart + 1
      index += 1
      let key = try string()
      if !keepDuplicates && isDuplicate(key, in: members, seen: &seen) {
        throw JSONParseFailure(message: "invalid json: duplicate key \"\(key)\"", line: line, column: keyColumn)
      }
      skipWhitespace()
      guard index < count, byte(index) == UInt8(ascii: ":") else {
        throw failure("invalid json: expected ':' after the key \"\(key)\"")
      }
      index += 1
      skipWhitespace()
      members.append(JSONMember(key: key, value: try value(depth: depth)))
      skipWhitespace()
      guard index < count else { throw failure("invalid json: unexpected end of input, expected ',' or '}'") }
      switch byte(index) {
      case UInt8(ascii: ","):
        index += 1
        skipWhitespace()
      case UInt8(ascii: "}"):
        index += 1
        return members
      case let b: throw failure("invalid json: expected ',' or '}' after an object member, found \(describe(b))")
      }
    }
  }

  /// Small objects are scanned; past 16 members a set keeps the check linear.
  private func isDuplicate(_ key: String, in members: [JSONMember], seen: inout Set<String>?) -> Bool {
    if members.count < 16 { return members.contains { $0.key == key } }
    if seen == nil { seen = Set(members.map(\.key)) }
    return seen?.insert(key).inserted == false
  }

  mutating func literal(_ word: StaticString, _ kind: JSONValue.Kind) throws(JSONParseFailure) -> JSONValue.Kind {
    let length = word.utf8CodeUnitCount
    let expected = word.utf8Start
    for k in 0..<length where index + k >= count || byte(index + k) != expected[k] {
      index += k
      throw failure(
        "invalid json: unexpected \(index < count ? describe(byte(index)) : "end of input"), expected a value")
    }
    index += length
    return kind
  }

  func failure(_ message: String) -> JSONParseFailure {
    JSONParseFailure(message: message, line: line, column: index - lineStart + 1)
  }

  func describe(_ b: UInt8) -> String {
    if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
    return "byte 0x" + String(b, radix: 16, uppercase: true)
  }
}
