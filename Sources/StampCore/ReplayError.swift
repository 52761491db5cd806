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

  /// The problem in lower case, led by the JSON path of the item or value at fault.
  public var description: String {
    switch self {
    case .invalidTouches(let item, let issues):
      return issues.map { "gestures[\(item)].touches\($0)" }.joined(separator: "; ")
    case .unknownStamp(let item, let id):
      return "gestures[\(item)]: no stamp has the id \"\(id)\""
    case .stampCovered(let item, let id):
      return "gestures[\(item)]: stamp \"\(id)\" is covered by the stamps above it where the gesture would begin"
    case .invalidItem(let item, let field, let message):
      return "gestures[\(item)].\(field): \(message)"
    case .invalidScene(let path, let message):
      return "\(path): \(message)"
    }
  }
}
