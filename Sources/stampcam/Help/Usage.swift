import StampBatch

/// The help texts: the synopsis and the option lists generated from the commands' declarations (the
/// `CommandTable`), around their hand-written prose.
enum Usage {
  /// The names of the commands, in the table's order.
  static var commands: [String] { CommandTable.names }

  static let version = "stampcam \(StampcamVersion.current)"

  /// The synopsis of `stampcam --help`, one string a line, without the help's indent: every form of every
  /// command, then the help's own. The README's "The command line" shows exactly these lines.
  static var synopsis: [String] {
    CommandTable.all.flatMap { synopsis(of: $0) } + [HelpCommand.synopsis]
  }

  /// A command's synopsis lines, one form after another, each wrapped at `TextLayout.synopsisWidth`.
  static func synopsis<C: Subcommand>(of command: C.Type) -> [String] {
    command.forms.flatMap { form in
      let items = (form.operand.map { [$0] } ?? []) + form.options.map(\.synopsis)
      let title = "stampcam \(form.title(command.name))"
      return items.isEmpty ? [title] : TextLayout.wrap(items, lead: title + " ", width: TextLayout.synopsisWidth)
    }
  }

  /// `stampcam --help` without a topic or with one that is no command; a command's help otherwise.
  static func text(for topic: String?) -> String {
    guard let topic, let command = CommandTable.named(topic) else { return overview }
    return text(of: command)
  }

  static var overview: String {
    [HelpCommand.title, "USAGE\n" + TextLayout.indent(synopsis.joined(separator: "\n"), by: 2), HelpCommand.overview]
      .joined(separator: "\n\n")
  }

  /// USAGE, the prose, each section of options (with its intro), then the notes and examples.
  static func text<C: Subcommand>(of command: C.Type) -> String {
    var parts = ["USAGE\n" + TextLayout.indent(synopsis(of: command).joined(separator: "\n"), by: 2)]
    parts.append(command.help.about)
    // An option that several forms take (import's --out) is listed once, where it first appears.
    var seen: Set<String> = []
    let options = command.forms.flatMap(\.options).filter { seen.insert($0.name).inserted }
    var headings: [String] = []
    for option in options where !headings.contains(option.section) { headings.append(option.section) }
    for heading in headings {
      var block = [heading]
      if let intro = command.help.intros[heading] { block.append(TextLayout.indent(intro, by: 2)) }
      block += options.filter { $0.section == heading }.flatMap(entry)
      parts.append(block.joined(separator: "\n"))
    }
    if !command.help.after.isEmpty { parts.append(command.help.after) }
    return parts.joined(separator: "\n\n")
  }

  /// An option's lines in the list: its usage in a column of 19, its summary and default wrapped beside it (or
  /// under it, when the usage is wider than the column).
  static func entry<V>(_ option: Option<V>) -> [String] {
    let name = "  " + option.usage + (option.alias.map { ", \($0)" } ?? "")
    let summary = option.summary + (option.defaultValue.map { " (default: \($0))" } ?? "")
    let column = 21
    guard name.count < column else {
      return [name] + TextLayout.words(summary, lead: String(repeating: " ", count: column), width: TextLayout.width)
    }
    let lead = name + String(repeating: " ", count: column - name.count)
    return TextLayout.words(summary, lead: lead, width: TextLayout.width)
  }
}
