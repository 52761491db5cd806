/// One event line of a getevent log that the import uses, e.g.
/// `[   12345.678901] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    000001c2`.
struct GeteventRecord: Sendable, Hashable {
  /// The line's number in the log, from 1.
  var line: Int
  /// The kernel's timestamp in microseconds (integers keep differences exact); in a log without timestamps, the
  /// number of the device's reports before it, set by the importer.
  var micros: Int64
  /// The device path before the colon (`/dev/input/event2`), or nil when getevent watched one device only.
  var device: String?
  /// What the line reports.
  var event: EvdevEvent
  /// The value, as the kernel's signed 32-bit integer (`ffffffff` is -1).
  var value: Int32

  static let shape = "'[seconds] [device:] type code value' as 'getevent -lt' or 'getevent -t' prints it"

  /// Reads one timestamped event line; nil when it is well formed but about an event the import skips.
  static func parse(_ text: String, line: Int) throws -> GeteventRecord? {
    func malformed(_ expected: String = shape) -> ImportError {
      .malformed(line: line, text: text, expected: expected)
    }
    let body = text.drop(while: { $0 == " " || $0 == "\t" })
    guard body.first == "[", let close = body.firstIndex(of: "]") else {
      throw malformed("a timestamp in brackets: \(shape)")
    }
    let stamp = body[body.index(after: body.startIndex)..<close].trimmingWhitespace()
    guard let micros = parseMicros(stamp) else {
      throw malformed("a timestamp in seconds such as '[   12345.678901]'")
    }
    return try parseEvent(body[body.index(after: close)...], text: text, line: line, micros: micros)
  }

  /// Reads an event line without a timestamp (`getevent -l` or plain `getevent`); its `micros` is 0 until the
  /// importer numbers the frames.
  static func parseUntimed(_ text: String, line: Int) throws -> GeteventRecord? {
    try parseEvent(Substring(text), text: text, line: line, micros: 0)
  }

  /// Whether `text` (trimmed) is an event line without a timestamp, told strictly apart from a header's lines:
  /// `[device:] type code value [rate N]` with the type a known name or 4 hex digits, the code a name or 4 hex
  /// digits and the value 8 hex digits or a value name, as getevent prints them.
  static func isUntimedEvent(_ text: String) -> Bool {
    var tokens = text.split(whereSeparator: \.isWhitespace)
    if let first = tokens.first, first.hasSuffix(":") { tokens.removeFirst() }
    if tokens.count == 5 && tokens[3] == "rate" { tokens.removeLast(2) }
    guard tokens.count == 3 else { return false }
    let isHex = { (token: Substring, digits: Int) in token.count == digits && token.allSatisfy(\.isHexDigit) }
    let typeOK = EvdevEvent.typeNumbers[String(tokens[0])] != nil || isHex(tokens[0], 4)
    let codeOK = isHex(tokens[1], 4) || isName(tokens[1])
    let valueOK = isHex(tokens[2], 8) || EvdevEvent.valueNames[String(tokens[2])] != nil
    return typeOK && codeOK && valueOK
  }

  private static func parseEvent(_ rest: Substring, text: String, line: Int, micros: Int64) throws -> GeteventRecord? {
    func malformed(_ expected: String = shape) -> ImportError {
      .malformed(line: line, text: text, expected: expected)
    }
    var tokens = rest.split(whereSeparator: \.isWhitespace)
    var device: String?
    if let first = tokens.first, first.hasSuffix(":") {
      device = String(first.dropLast())
      tokens.removeFirst()
    }
    // `getevent -r` adds the report rate after a SYN_REPORT.
    if tokens.count == 5 && tokens[3] == "rate" && Int(tokens[4]) != nil { tokens.removeLast(2) }
    guard tokens.count == 3 else { throw malformed() }
    guard let type = number(tokens[0], names: EvdevEvent.typeNumbers),
      let code = number(tokens[1], names: EvdevEvent.codeNumbers)
    else {
      throw malformed("an event type and code, as names (EV_ABS ABS_MT_SLOT) or hex numbers (0003 002f)")
    }
    guard let value = parseValue(tokens[2]) else {
      throw malformed("a value in hex (00000001, ffffffff) or DOWN, UP, REPEAT")
    }
    guard let typeNumber = type, let codeNumber = code, let event = EvdevEvent(type: typeNumber, code: codeNumber)
    else { return nil }
    return GeteventRecord(line: line, micros: micros, device: device, event: event, value: value)
  }

  /// `12345.678901` (or with fewer or more fraction digits) as microseconds.
  static func parseMicros(_ text: String) -> Int64? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, let wholeText = parts.first, !wholeText.isEmpty, wholeText.count <= 12,
      wholeText.allSatisfy(\.isASCIIDigit), let whole = Int64(wholeText)
    else { return nil }
    var fraction: Int64 = 0
    if parts.count == 2 {
      let digits = parts[1]
      guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return nil }
      let six = String((digits + "000000").prefix(6))
      fraction = Int64(six) ?? 0
    }
    return whole * 1_000_000 + fraction
  }

  /// A hex number, a known name (wrapped in an optional), or nil (outer) when the token is neither a number nor a
  /// name. An unknown name gives `.some(nil)`: well formed, but about something the import skips.
  static func number(_ token: Substring, names: [String: Int]) -> Int?? {
    if token.count <= 8, token.allSatisfy(\.isHexDigit) { return Int(token, radix: 16) }
    guard isName(token) else { return nil }
    return .some(names[String(token)])
  }

  /// Whether the token looks like a getevent label: `ABS_MT_SLOT`, `EV_KEY`.
  static func isName(_ token: Substring) -> Bool {
    token.first?.isUppercase == true && token.contains("_")
      && token.allSatisfy { $0.isUppercase || $0.isASCIIDigit || $0 == "_" }
  }

  /// A value as getevent prints it: eight hex digits of the signed 32-bit value, or a key state's name.
  static func parseValue(_ token: Substring) -> Int32? {
    if let named = EvdevEvent.valueNames[String(token)] { return named }
    guard token.count <= 8, token.allSatisfy(\.isHexDigit), let bits = UInt32(token, radix: 16) else { return nil }
    return Int32(bitPattern: bits)
  }
}

extension Character {
  /// 0 to 9 only (`isNumber` also accepts other scripts' digits and fractions).
  var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
