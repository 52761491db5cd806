extension JSONScanner {
  /// Parses a string whose opening quote has been consumed.
  mutating func string() throws(JSONParseFailure) -> String {
    let start = index
    var ascii = true
    while index < count {
      let b = byte(index)
      if b == UInt8(ascii: "\"") {
        let text = UnsafeRawBufferPointer(start: bytes + start, count: index - start)
        index += 1
        if ascii { return String(decoding: text, as: UTF8.self) }
        guard let valid = String(validating: text, as: UTF8.self) else {
          throw JSONParseFailure(
            message: "invalid json: invalid utf-8 in a string", line: line, column: start - lineStart)
        }
        return valid
      }
      if b == UInt8(ascii: "\\") { return try escapedString(from: start) }
      if b < 0x20 { throw failure("invalid json: control character in a string (escape it, e.g. as \\n)") }
      if b >= 0x80 { ascii = false }
      index += 1
    }
    throw failure("invalid json: unterminated string")
  }

  /// The slow path, for strings with escapes: the bytes are copied and the escapes decoded.
  private mutating func escapedString(from start: Int) throws(JSONParseFailure) -> String {
    var buffer = [UInt8](UnsafeRawBufferPointer(start: bytes + start, count: index - start))
    while index < count {
      let b = byte(index)
      if b == UInt8(ascii: "\"") {
        index += 1
        guard let valid = String(validating: buffer, as: UTF8.self) else {
          throw JSONParseFailure(
            message: "invalid json: invalid utf-8 in a string", line: line, column: start - lineStart)
        }
        return valid
      }
      if b < 0x20 { throw failure("invalid json: control character in a string (escape it, e.g. as \\n)") }
      if b != UInt8(ascii: "\\") {
        buffer.append(b)
        index += 1
        continue
      }
      guard index + 1 < count else { break }
      let escape = byte(index + 1)
      index += 2
      switch escape {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
      case UInt8(ascii: "b"): buffer.append(0x08)
      case UInt8(ascii: "f"): buffer.append(0x0C)
      case UInt8(ascii: "n"): buffer.append(0x0A)
      case UInt8(ascii: "r"): buffer.append(0x0D)
      case UInt8(ascii: "t"): buffer.append(0x09)
      case UInt8(ascii: "u"): appendUTF8(try unicodeEscape(), to: &buffer)
      default:
        index -= 2
        throw failure("invalid json: invalid escape \\\(Character(Unicode.Scalar(escape)))")
      }
    }
    throw failure("invalid json: unterminated string")
  }

  /// Decodes `XXXX` after `\u`, joining a surrogate pair; a lone surrogate is an error.
  private mutating func unicodeEscape() throws(JSONParseFailure) -> Unicode.Scalar {
    let high = try hex4()
    if (0xDC00...0xDFFF).contains(high) { throw failure("invalid json: unpaired surrogate in \\u escape") }
    guard (0xD800...0xDBFF).contains(high) else {
      guard let scalar = Unicode.Scalar(high) else { throw failure("invalid json: invalid \\u escape") }
      return scalar
    }
    guard index + 1 < count, byte(index) == UInt8(ascii: "\\"), byte(index + 1) == UInt8(ascii: "u") else {
      throw failure("invalid json: unpaired surrogate in \\u escape")
    }
    index += 2
    let low = try hex4()
    guard (0xDC00...0xDFFF).contains(low),
      let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    else { throw failure("invalid json: unpaired surrogate in \\u escape") }
    return scalar
  }

  private mutating func hex4() throws(JSONParseFailure) -> UInt32 {
    guard index + 4 <= count else { throw failure("invalid json: \\u needs four hex digits") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let b = byte(index)
      let digit: UInt8
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
      default: throw failure("invalid json: \\u needs four hex digits")
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  private func appendUTF8(_ scalar: Unicode.Scalar, to buffer: inout [UInt8]) {
    if let encoded = UTF8.encode(scalar) { buffer.append(contentsOf: encoded) }
  }
}
