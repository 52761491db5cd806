extension JSONScanner {
  /// Parses a number in RFC 8259's grammar.
  ///
  /// Most numbers in a manifest have few digits: those are computed exactly from an integer mantissa and a power of
  /// ten no larger than 10^22 (both exact in a Double, so one correctly rounded operation); the rest go through the
  /// standard library's correctly rounded conversion.
  mutating func number() throws(JSONParseFailure) -> Double {
    let start = index
    let negative = byte(index) == UInt8(ascii: "-")
    if negative { index += 1 }
    var mantissa: UInt64 = 0
    var digits = 0
    var exponent = 0
    guard index < count, isDigit(byte(index)) else { throw failure("invalid json: invalid number, expected a digit") }
    if byte(index) == UInt8(ascii: "0") {
      index += 1
      if index < count && isDigit(byte(index)) { throw failure("invalid json: invalid number, leading zero") }
    } else {
      while index < count, isDigit(byte(index)) {
        mantissa = mantissa &* 10 &+ UInt64(byte(index) &- UInt8(ascii: "0"))
        digits += 1
        index += 1
      }
    }
    if index < count && byte(index) == UInt8(ascii: ".") {
      index += 1
      guard index < count, isDigit(byte(index)) else {
        throw failure("invalid json: invalid number, expected a digit after '.'")
      }
      while index < count, isDigit(byte(index)) {
        mantissa = mantissa &* 10 &+ UInt64(byte(index) &- UInt8(ascii: "0"))
        digits += 1
        exponent -= 1
        index += 1
      }
    }
    if index < count && (byte(index) | 0x20) == UInt8(ascii: "e") {
      index += 1
      var exponentNegative = false
      if index < count && (byte(index) == UInt8(ascii: "+") || byte(index) == UInt8(ascii: "-")) {
        exponentNegative = byte(index) == UInt8(ascii: "-")
        index += 1
      }
      guard index < count, isDigit(byte(index)) else {
        throw failure("invalid json: invalid number, expected a digit in the exponent")
      }
      var written = 0
      while index < count, isDigit(byte(index)) {
        written = min(written * 10 + Int(byte(index) - UInt8(ascii: "0")), 1_000_000)
        index += 1
      }
      exponent += exponentNegative ? -written : written
    }
    if digits <= 19 && mantissa <= 1 << 53 && (-22...22).contains(exponent) {
      let m = Double(mantissa)
      let value = exponent < 0 ? m / JSONScanner.powersOfTen[-exponent] : m * JSONScanner.powersOfTen[exponent]
      return negative ? -value : value
    }
    let text = String(decoding: UnsafeRawBufferPointer(start: bytes + start, count: index - start), as: UTF8.self)
    guard let value = Double(text) else { throw failure("invalid json: invalid number") }
    return value
  }

  @inline(__always) func isDigit(_ b: UInt8) -> Bool {
    b &- UInt8(ascii: "0") < 10
  }

  static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
    1e20, 1e21, 1e22,
  ]
}
