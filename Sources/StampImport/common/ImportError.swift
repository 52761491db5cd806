/// Why a recorded touch log could not be turned into touches.
///
/// Messages are lower case, name the line when there is one, and say what was expected, so that the command line
/// can print them after `stampcam: error: ` as they are.
package enum ImportError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A line does not have the shape of any line the format allows.
  case malformed(line: Int, text: String, expected: String)
  /// A line is well formed but says something impossible, e.g. a touch ends that is not down.
  case invalid(line: Int, message: String)
  /// The log's coordinates cannot be scaled: no `getevent -p` header gives the axis ranges and no maxima were passed.
  case missingAxisRange(device: String?)
  /// Several devices in the log report touches and none was chosen.
  case ambiguousDevice([String])
  /// The chosen device reports nothing in the log; `known` lists the devices that do.
  case unknownDevice(String, known: [String])
  /// An argument of the importer is out of range, e.g. a screen of zero width.
  case badParameter(String)
  /// The log holds no touch at all.
  case noTouches(hint: String)
  /// The log's events have no timestamps (from this line on) and no frame interval was given.
  case untimed(line: Int)

  package var description: String {
    switch self {
    case .malformed(let line, let text, let expected):
      return "line \(line): cannot read '\(Self.excerpt(text))': expected \(expected)"
    case .invalid(let line, let message):
      return "line \(line): \(message)"
    case .missingAxisRange(let device):
      let which = device.map { " of \($0)" } ?? ""
      return "the axis ranges\(which) are unknown: the log has no 'getevent -lp' header; "
        + "pass --axis-max with the raw x and y maxima"
    case .ambiguousDevice(let devices):
      return "the log has touches from several devices (\(devices.joined(separator: ", "))): "
        + "pass --device to choose one"
    case .unknownDevice(let name, let known):
      let list = known.isEmpty ? "none" : known.joined(separator: ", ")
      return "no events from device '\(name)' in the log (devices with events: \(list))"
    case .badParameter(let message):
      return message
    case .noTouches(let hint):
      return "no touches found in the log" + (hint.isEmpty ? "" : ": \(hint)")
    case .untimed(let line):
      return "line \(line): the events have no timestamps (recorded with 'getevent -l', not 'getevent -lt'): "
        + "pass --frame-interval with the seconds between frames, e.g. 0.008 for a 120 Hz panel"
    }
  }

  /// The offending text, shortened so that one bad line of a long log keeps the message on one screen line.
  static func excerpt(_ text: String) -> String {
    let limit = 60
    let trimmed = text.trimmingWhitespace()
    return trimmed.count <= limit ? trimmed : String(trimmed.prefix(limit)) + "..."
  }
}

extension StringProtocol {
  /// The text without leading and trailing whitespace: spaces, tabs, carriage returns (no Foundation needed).
  func trimmingWhitespace() -> String {
    let isSpace: (Character) -> Bool = { $0.isWhitespace }
    guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return String(self[first...last])
  }
}
