/// One option of a command, declared once beside the command: what the parser accepts, and what the help's
/// synopsis and option list say about it.
struct Option<Values>: Sendable {
  /// What the option does with the command line.
  enum Action: Sendable {
    /// A switch that takes no value: `--quiet`.
    case flag(@Sendable (inout Values) -> Void)
    /// An option with a value, `--jobs N` or `--jobs=N`: the closure checks the text and stores it.
    case value(placeholder: String, @Sendable (inout Values, String) throws(UsageError) -> Void)
  }

  /// `--jobs`.
  var name: String
  /// A short spelling (`-q`), shown beside the name in the option list, not in the synopsis.
  var alias: String?
  var action: Action
  /// What the help says about it.
  var summary: String
  /// The value in effect without it, in words; nil for a switch or when there is none.
  var defaultValue: String?
  /// Why the command cannot run without it, e.g. "the folder the outputs go to"; nil when it may be left out.
  var required: String?
  /// The heading of the help section that lists it.
  var section = "OPTIONS"

  /// A switch: `--overlay`, `--quiet` (`-q`).
  static func flag(
    _ name: String, alias: String? = nil, _ summary: String, set: @escaping @Sendable (inout Values) -> Void
  ) -> Option {
    Option(name: name, alias: alias, action: .flag(set), summary: summary)
  }

  /// An option with a value, `NAME PLACEHOLDER`; `set` refuses a bad value with a `UsageError` naming the option.
  static func value(
    _ name: String, _ placeholder: String, _ summary: String, default defaultValue: String? = nil,
    required: String? = nil, set: @escaping @Sendable (inout Values, String) throws(UsageError) -> Void
  ) -> Option {
    Option(
      name: name, action: .value(placeholder: placeholder, set), summary: summary, defaultValue: defaultValue,
      required: required)
  }

  /// The same option listed under another heading of the help.
  func listed(under heading: String) -> Option {
    var option = self
    option.section = heading
    return option
  }

  /// The same option with the values it fills reached through `path`, for options shared by several commands.
  func lifted<Outer>(_ path: WritableKeyPath<Outer, Values> & Sendable) -> Option<Outer> {
    let action: Option<Outer>.Action
    switch self.action {
    case .flag(let set): action = .flag { set(&$0[keyPath: path]) }
    case .value(let placeholder, let set):
      action = .value(placeholder: placeholder) { (outer, text) throws(UsageError) in
        try set(&outer[keyPath: path], text)
      }
    }
    return Option<Outer>(
      name: name, alias: alias, action: action, summary: summary, defaultValue: defaultValue, required: required,
      section: section)
  }

  /// `--jobs N` or `--quiet`.
  var usage: String {
    switch action {
    case .flag: return name
    case .value(let placeholder, _): return "\(name) \(placeholder)"
    }
  }

  /// `--out DIR` when required, `[--jobs N]` otherwise.
  var synopsis: String { required == nil ? "[\(usage)]" : usage }
}
