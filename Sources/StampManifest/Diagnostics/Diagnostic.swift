/// One problem found in a manifest: where it is and what is wrong.
///
/// Its description reads `manifest.json:12: jobs[3].stamps[0].centre: unknown key (did you mean "center"?)`; the
/// column appears only for JSON syntax errors, the path only when the problem belongs to a value.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
  /// The manifest's file name as the user gave it.
  public var file: String
  /// The 1-based line, when known.
  public var line: Int?
  /// The 1-based column in UTF-8 bytes, when known (JSON syntax errors).
  public var column: Int?
  /// The JSON path of the value at fault, e.g. `jobs[3].stamps[0].center`; empty for the file as a whole.
  public var path: String
  /// What is wrong, in lower case.
  public var message: String

  /// Creates a diagnostic.
  public init(file: String, line: Int? = nil, column: Int? = nil, path: String = "", message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.path = path
    self.message = message
  }

  public var description: String {
    var text = file
    if let line {
      text += ":\(line)"
      if let column { text += ":\(column)" }
    }
    text += ": "
    if !path.isEmpty { text += path + ": " }
    return text + message
  }
}

extension Diagnostic {
  /// The diagnostic with `subject` told before its message (`job "wm/a.jpg": ...`).
  package func about(_ subject: String) -> Diagnostic {
    var told = self
    told.message = subject + ": " + message
    return told
  }
}
