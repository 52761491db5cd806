/// Reads the arguments after a command's name against one of its forms: `--name value` and `--name=value` both,
/// one operand anywhere among the options, `--` ending the options, `--help` or `-h` asking for the command's help.
struct ArgumentReader<Values: Sendable> {
  /// The command's name (`import`), for `stampcam help` and messages.
  let command: String
  let form: Form<Values>

  /// The values the arguments give; nil when they ask for the help.
  func read(_ arguments: ArraySlice<String>) throws(UsageError) -> Values? {
    let title = form.title(command)
    var values = form.start
    var operand: String?
    var given: Set<String> = []
    var optionsEnded = false
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        guard let name = form.operand else { throw takesNoArguments(argument, title) }
        guard operand == nil || form.operandRepeats else {
          throw UsageError(message: "\(title) takes one \(name.lowercased()); unexpected '\(argument)'")
        }
        operand = argument
        form.setOperand(&values, argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      if argument == "--help" || argument == "-h" { return nil }
      let (key, inline) = Self.split(argument)
      guard let option = form.options.first(where: { $0.name == key || $0.alias == key }) else {
        throw unknown(key, argument, title)
      }
      given.insert(option.name)
      switch option.action {
      case .flag(let set):
        guard inline == nil else { throw UsageError(message: "\(key) takes no value") }
        set(&values)
      case .value(_, let set):
        guard let value = inline ?? rest.popFirst() else { throw UsageError(message: "\(key) needs a value") }
        try set(&values, value)
      }
    }
    // The form's own words first: what is missing may not be what the synopsis calls its operand.
    if let problem = form.operandsProblem(values) { throw UsageError(message: problem) }
    if let name = form.operand, operand == nil {
      throw UsageError(message: "\(title) needs a \(name) (see 'stampcam help \(command)')")
    }
    for option in form.options where !given.contains(option.name) {
      if let why = option.required { throw UsageError(message: "\(title) needs \(option.usage) (\(why))") }
    }
    return values
  }

  private func unknown(_ key: String, _ argument: String, _ title: String) -> UsageError {
    if form.options.isEmpty && form.operand == nil { return takesNoArguments(argument, title) }
    let known = form.options.map(\.name).sorted()
    let hint = known.isEmpty ? "" : " (\(title) takes \(known.joined(separator: ", ")))"
    return UsageError(message: "unknown option '\(key)' for \(title)\(hint)")
  }

  private func takesNoArguments(_ argument: String, _ title: String) -> UsageError {
    UsageError(message: "\(title) takes no arguments; unexpected '\(argument)'")
  }

  /// `--name=value` as the name and the value; anything else as it is.
  private static func split(_ argument: String) -> (String, String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }
}
