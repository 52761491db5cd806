import Foundation
import Testing

@testable import stampcam

/// The help is generated from the options' declarations; the README shows the same synopsis.
@Suite("Help: generated from the declarations, the same in the README")
struct HelpTests {
  /// The lines of `text`'s first block after a line equal to `heading` up to the first empty line, `indent` columns
  /// of each removed.
  static func block(after heading: String, in text: String, indent: Int) throws -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let start = try #require(lines.firstIndex(of: heading), "no '\(heading)' in \(text)")
    return lines[(start + 1)...].prefix { !$0.isEmpty }.map { String($0.dropFirst(indent)) }
  }

  /// The fenced block under the README's "## The command line".
  static func readmeSynopsis() throws -> [String] {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("README.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    let section = try #require(text.range(of: "## The command line\n\n```\n"), "no synopsis block in the README")
    let end = try #require(text[section.upperBound...].range(of: "```"))
    return text[section.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
  }

  @Test func theReadmeShowsTheSynopsisThatHelpPrints() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    let help = try cli.run(["--help"])
    #expect(help.status == 0)
    let printed = try Self.block(after: "USAGE", in: help.stdout, indent: 2)
    let readme = try Self.readmeSynopsis()
    let shown = "README:\n\(readme.joined(separator: "\n"))\n--help:\n\(printed.joined(separator: "\n"))"
    #expect(readme == printed, "\(shown)")
    #expect(printed == Usage.synopsis)
  }

  /// Every option of every form is in its command's synopsis (bracketed unless required), once in its option list,
  /// and accepted by the parser (a misspelt declaration would be an unknown option).
  @Test func everyDeclaredOptionIsInTheSynopsisTheListAndTheParser() throws {
    for command in CommandTable.all {
      let text = Usage.text(for: command.name)
      let synopsis = try Self.block(after: "USAGE", in: text, indent: 2).joined(separator: " ")
      for form in Self.forms(of: command) {
        for (usage, required) in form.options {
          #expect(synopsis.contains(required ? " \(usage) " : "[\(usage)]"), "\(command.name): \(usage)")
          let listed = text.split(separator: "\n").filter { line in
            line == "  \(usage)" || line.hasPrefix("  \(usage) ") || line.hasPrefix("  \(usage), ")
          }
          #expect(listed.count == 1, "\(command.name): \(usage) listed \(listed.count) times")
        }
      }
      for (usage, _) in Self.forms(of: command).flatMap(\.options) {
        let name = String(usage.prefix { $0 != " " })
        do {
          _ = try Parser.parse([command.name] + Self.words(of: command) + [name, "--help"])
        } catch {
          #expect(!error.message.contains("unknown option"), "\(command.name) \(name): \(error.message)")
        }
      }
    }
  }

  /// The forms of `command` as words and (usage, required) pairs, read through the declarations' own properties.
  static func forms<C: Subcommand>(of command: C.Type) -> [(words: [String], options: [(String, Bool)])] {
    command.forms.map { form in (form.words, form.options.map { ($0.usage, $0.required != nil) }) }
  }

  static func words<C: Subcommand>(of command: C.Type) -> [String] {
    command.forms.first?.words ?? []
  }

  /// Worked out by hand: "x aa" (4 columns) and " bb" fit in 7; " cc" would make 10, so it starts a line indented
  /// as far as the lead.
  @Test func wrappingKeepsItemsWholeAndIndentsUnderTheFirst() {
    #expect(TextLayout.wrap(["aa", "bb", "cc"], lead: "x ", width: 7) == ["x aa bb", "  cc"])
    #expect(TextLayout.wrap(["[--report FILE|-]"], lead: "x ", width: 7) == ["x [--report FILE|-]"])
  }

  /// The option column is 19 wide after two spaces, so a summary starts at column 22 (index 21); a usage that
  /// does not fit puts the summary on the next line.
  @Test func anOptionsEntryLinesUpItsSummary() {
    let jobs = Option<RenderOptions>.value("--jobs", "N", "jobs in flight at once", default: "the number of cores") {
      _, _ in
    }
    #expect(Usage.entry(jobs) == ["  --jobs N           jobs in flight at once (default: the number of cores)"])
    let long = Option<RenderOptions>.flag("--allow-untrusted-loaders", "all of them") { _ in }
    #expect(Usage.entry(long) == ["  --allow-untrusted-loaders", "                     all of them"])
  }

  /// The help is read in a terminal: no line is wider than 116 columns, a synopsis line no wider than 102.
  @Test func everyHelpLineFitsTheWidth() throws {
    for topic in [nil] + Usage.commands {
      let text = Usage.text(for: topic)
      for line in text.split(separator: "\n") {
        #expect(line.count <= 116, "\(topic ?? "overview"): \(line)")
      }
      for line in try Self.block(after: "USAGE", in: text, indent: 0) {
        #expect(line.count <= 102, "\(line)")
      }
    }
  }

  /// The exit statuses --help lists are those `ExitStatus` returns.
  @Test func theOverviewListsEveryExitStatus() {
    let text = Usage.overview
    for (status, words) in [
      (ExitStatus.failed, "one or more jobs failed"), (ExitStatus.usage, "usage error"),
      (ExitStatus.outputLost, "standard output could not be written"),
      (ExitStatus.errorLost, "standard error could not be written"),
    ] {
      #expect(text.contains("\(status) \(words)"), "\(status)")
    }
  }
}
