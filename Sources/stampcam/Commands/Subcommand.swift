/// A command of the `CommandTable`: its name, the forms it is called in with their options (declared once, they
/// drive both the parser and the help), and its help's prose.
protocol Subcommand: Runnable {
  /// What its options fill: the command itself, or the options it is made from.
  associatedtype Values: Sendable

  /// `render`.
  static var name: String { get }
  /// The ways to call it, each a line of the synopsis.
  static var forms: [Form<Values>] { get }
  /// The hand-written part of `stampcam help NAME`.
  static var help: Help { get }

  init(_ values: Values)

  /// The mistake of a first argument that chooses none of the forms (nil: there is none), for a command with
  /// several (`import getevent`, `import cdp`).
  static func unknownForm(_ word: String?) -> UsageError
}

extension Subcommand where Values == Self {
  init(_ values: Self) {
    self = values
  }
}

extension Subcommand {
  static func unknownForm(_ word: String?) -> UsageError {
    let words = forms.map { $0.title(name) }.joined(separator: "' or '")
    return UsageError(message: "\(name) needs one of '\(words)'" + (word.map { ", not '\($0)'" } ?? ""))
  }

  /// Parses the arguments after the command's name.
  static func parse(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    var arguments = arguments
    let form: Form<Values>
    if forms.count == 1, let only = forms.first, only.words.isEmpty {
      form = only
    } else {
      guard let word = arguments.popFirst() else { throw unknownForm(nil) }
      if word == "--help" || word == "-h" { return .help(topic: name) }
      guard let chosen = forms.first(where: { $0.words.first == word }) else { throw unknownForm(word) }
      form = chosen
    }
    guard let values = try ArgumentReader(command: name, form: form).read(arguments) else {
      return .help(topic: name)
    }
    return Command(Self(values))
  }
}
