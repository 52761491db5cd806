/// Turns `CommandLine.arguments` (without the program name) into a `Command`.
///
/// The first argument names a command of the `CommandTable`, whose declared options read the rest (see
/// `ArgumentReader`); `--help`, `help [COMMAND]` and `--version` are answered here. Every mistake is a
/// `UsageError` that says what was wrong and what to try instead.
enum Parser {
  static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    guard let first = arguments.first else { return .help(topic: nil) }
    let rest = arguments.dropFirst()
    switch first {
    case "-h", "--help": return .help(topic: nil)
    case "help": return .help(topic: try HelpCommand.topic(rest.first))
    case "-V", "--version", "version": return .version
    default:
      if let command = CommandTable.named(first) { return try command.parse(rest) }
      if first.hasPrefix("-") { throw UsageError(message: "unknown option '\(first)' (see 'stampcam --help')") }
      throw UsageError(message: "unknown command '\(first)' (commands: \(Usage.commands.joined(separator: ", ")))")
    }
  }
}
