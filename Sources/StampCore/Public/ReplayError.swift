/// Why a job's gestures cannot be replayed.
public enum ReplayError: Error, CustomStringConvertible, Equatable {
  /// A `touches` item (index `item` in the script) breaks the touch-stream rules; every problem is listed.
  case invalidTouches(item: Int, issues: [TouchStreamIssue])
  /// A gesture item names a stamp the job does not have.
  case unknownStamp(item: Int, id: String)
  /// A gesture item's stamp cannot be touched where the gesture must begin: stamps drawn above it cover the spot.
  case stampCovered(item: Int, id: String)
  /// A high-level gesture item has an unusable value (`field` is its key, such as `steps`).
  case invalidItem(item: Int, field: String, message: String)
  /// The scene itself cannot be replayed: a size, a stamp or a setting is out of range (`path` names it).
  case invalidScene(path: String, message: String)

  /// The JSON path, inside the job, of the item or value at fault (`gestures[0]`, `gestures[1].touches[3].t`,
  /// `stamps[0].size`); for touches that break several rules, the first problem's.
  public var path: String {
    switch self {
    case .invalidTouches(let item, let issues):
      return issues.first.map { Self.path(item: item, issue: $0) } ?? "gestures[\(item)].touches"
    case .unknownStamp(let item, _), .stampCovered(let item, _):
      return "gestures[\(item)]"
    case .invalidItem(let item, let field, _):
      return "gestures[\(item)].\(field)"
    case .invalidScene(let path, _):
      return path
    }
  }

  /// What is wrong there, in lower case; for touches that break several rules, the first problem's message and
  /// then every other problem, each led by its own path.
  public var message: String {
    switch self {
    case .invalidTouches(let item, let issues):
      guard let first = issues.first else { return "breaks the touch-stream rules" }
      let others = issues.dropFirst().map { "\(Self.path(item: item, issue: $0)): \($0.message)" }
      return ([first.message] + others).joined(separator: "; ")
    case .unknownStamp(_, let id):
      return "no stamp has the id \"\(id)\""
    case .stampCovered(_, let id):
      return "stamp \"\(id)\" is covered by the stamps above it where the gesture would begin"
    case .invalidItem(_, _, let message), .invalidScene(_, let message):
      return message
    }
  }

  /// The problem in lower case, led by the JSON path of the item or value at fault.
  public var description: String { "\(path): \(message)" }

  /// The path of one touch-stream problem of the `touches` item `item`.
  private static func path(item: Int, issue: TouchStreamIssue) -> String {
    "gestures[\(item)].touches[\(issue.index)]" + (issue.field.map { ".\($0)" } ?? "")
  }
}
