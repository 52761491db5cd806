import StampManifest

/// One `Input.dispatchTouchEvent` of a Chrome DevTools Protocol log, as read from its line.
struct CDPMessage: Sendable, Hashable {
  /// The message's `type`.
  enum Kind: String, Sendable, Hashable {
    case touchStart, touchMove, touchEnd, touchCancel
  }

  /// One entry of `touchPoints`, in CSS pixels.
  struct TouchPoint: Sendable, Hashable {
    /// The point's `id`, or its index in the list when the message gives no ids (as Chrome does).
    var id: Int
    /// The horizontal position.
    var x: Double
    /// The vertical position.
    var y: Double
  }

  /// The line's number in the log, from 1.
  var line: Int
  /// What the message dispatches.
  var kind: Kind
  /// The message's touch points.
  var points: [TouchPoint]
  /// The message's `timestamp` in seconds, if it has one.
  var timestamp: Double?

  /// Reads one line: a whole CDP message (`{"method": "Input.dispatchTouchEvent", "params": {...}}`) or its bare
  /// params object. Nil for a line about anything else: another method, a response, a note.
  static func parse(_ text: String, line: Int) throws -> CDPMessage? {
    // A repeated key is not an error here: the first one counts.
    guard let object = try? JSONParser(duplicateKeys: .keep).parse(text), object.isObject else {
      throw ImportError.malformed(line: line, text: text, expected: "a JSON object: one CDP message per line")
    }
    func invalid(_ message: String) -> ImportError { .invalid(line: line, message: message) }
    let params: JSONValue
    if let method = object["method"] {
      guard method.text == "Input.dispatchTouchEvent" else { return nil }
      guard let found = object["params"], found.isObject else { throw invalid("params: expected an object") }
      params = found
    } else if object["touchPoints"] != nil || (object["type"]?.text).flatMap(Kind.init) != nil {
      params = object
    } else {
      return nil
    }
    guard let typeName = params["type"]?.text, let kind = Kind(rawValue: typeName) else {
      throw invalid("type: expected touchStart, touchMove, touchEnd or touchCancel")
    }
    var timestamp: Double?
    if let stamp = params["timestamp"] {
      guard let seconds = stamp.finiteNumber else { throw invalid("timestamp: expected a number of seconds") }
      timestamp = seconds
    }
    let entries: [JSONValue]
    if let list = params["touchPoints"] {
      guard let found = list.elements else { throw invalid("touchPoints: expected an array") }
      entries = found
    } else if kind == .touchEnd || kind == .touchCancel {
      entries = []
    } else {
      throw invalid("touchPoints: missing; \(kind.rawValue) needs at least one touch point")
    }
    let points = try readPoints(entries, invalid: invalid)
    if points.isEmpty && (kind == .touchStart || kind == .touchMove) {
      throw invalid("touchPoints: \(kind.rawValue) needs at least one touch point")
    }
    return CDPMessage(line: line, kind: kind, points: points, timestamp: timestamp)
  }

  private static func readPoints(_ entries: [JSONValue], invalid: (String) -> ImportError) throws -> [TouchPoint] {
    var points: [TouchPoint] = []
    var withID = 0
    for (index, entry) in entries.enumerated() {
      let path = "touchPoints[\(index)]"
      guard entry.isObject else { throw invalid("\(path): expected an object") }
      guard let x = entry["x"]?.finiteNumber else { throw invalid("\(path).x: expected a number") }
      guard let y = entry["y"]?.finiteNumber else { throw invalid("\(path).y: expected a number") }
      var id = index
      if let given = entry["id"] {
        guard let value = given.finiteNumber, value == value.rounded(), abs(value) < 1e9 else {
          throw invalid("\(path).id: expected a whole number")
        }
        id = Int(value)
        withID += 1
      }
      if points.contains(where: { $0.id == id }) { throw invalid("\(path).id: touch point \(id) is listed twice") }
      points.append(TouchPoint(id: id, x: x, y: y))
    }
    if withID != 0 && withID != entries.count {
      throw invalid("touchPoints: all of the touch points or none must have an id, as Chrome requires")
    }
    return points
  }
}

extension JSONValue {
  /// Whether the value is an object.
  fileprivate var isObject: Bool {
    if case .object = kind { return true }
    return false
  }

  /// The elements of an array, or nil.
  fileprivate var elements: [JSONValue]? {
    if case .array(let elements) = kind { return elements }
    return nil
  }

  /// A string's text, or nil.
  fileprivate var text: String? {
    if case .string(let text) = kind { return text }
    return nil
  }

  /// A finite number, or nil (also for a boolean).
  fileprivate var finiteNumber: Double? {
    if case .number(let value) = kind, value.isFinite { return value }
    return nil
  }
}
