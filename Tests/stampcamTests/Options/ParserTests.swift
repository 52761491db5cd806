import Testing

@testable import stampcam

@Suite("Command-line parsing")
struct ParserTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var expected: Command
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let good: [Case] = [
    Case(arguments: [], expected: .help(topic: nil)),
    Case(arguments: ["--help"], expected: .help(topic: nil)),
    Case(arguments: ["help", "render"], expected: .help(topic: "render")),
    Case(arguments: ["render", "--help"], expected: .help(topic: "render")),
    Case(arguments: ["schema", "-h"], expected: .help(topic: "schema")),
    Case(arguments: ["--version"], expected: .version),
    Case(
      arguments: ["render", "m.json", "--out", "o"], expected: .render(RenderOptions(manifest: "m.json", out: "o"))),
    Case(
      arguments: ["render", "--out=o", "--jobs=3", "-q", "m.json", "--overlay"],
      expected: .render(RenderOptions(manifest: "m.json", out: "o", jobs: 3, quiet: true, overlay: true))),
    Case(
      arguments: ["render", "--max-pixels", "500", "--out", "o", "--", "-odd.json"],
      expected: .render(RenderOptions(manifest: "-odd.json", out: "o", maxPixels: 500))),
    Case(
      arguments: [
        "render", "m.json", "--out", "o", "--input-root", "in", "--fail-on=truncated", "--job-timeout", "2.5",
        "--stamp-cache-mb", "64", "--allow-untrusted-loaders",
      ],
      expected: .render(
        RenderOptions(
          manifest: "m.json", out: "o", inputRoot: "in", failOn: .truncated, allowUntrustedLoaders: true,
          jobTimeout: 2.5, stampCacheMB: 64))),
    Case(
      arguments: ["render", "m.json", "--out", "o", "--job-timeout", "0"],
      expected: .render(RenderOptions(manifest: "m.json", out: "o", jobTimeout: 0))),
    Case(arguments: ["validate", "m.json"], expected: .validate(manifest: "m.json")),
    Case(
      arguments: ["validate", "--max-pixels=5000", "m.json", "--input-root", "in", "--allow-untrusted-loaders"],
      expected: .validate(
        manifest: "m.json", inputs: InputOptions(maxPixels: 5000, inputRoot: "in", allowUntrustedLoaders: true))),
    Case(arguments: ["explain", "m.json", "--job", "7"], expected: .explain(manifest: "m.json", job: "7")),
    Case(arguments: ["explain", "m.json"], expected: .explain(manifest: "m.json", job: nil)),
    Case(
      arguments: ["explain", "m.json", "--allow-untrusted-loaders", "--max-pixels", "9", "--job=a"],
      expected: .explain(
        manifest: "m.json", job: "a", inputs: InputOptions(maxPixels: 9, allowUntrustedLoaders: true))),
    Case(arguments: ["schema"], expected: .schema),
    Case(
      arguments: [
        "import", "getevent", "log.txt", "--screen", "390x844", "--device=event2", "--axis-max", "1079x2399",
      ],
      expected: .importLog(
        ImportOptions(
          format: .getevent, log: "log.txt", screen: (390, 844), device: "event2", axisMax: (1079, 2399), out: nil))),
    Case(
      arguments: ["import", "getevent", "log.txt", "--screen", "390x844", "--frame-interval", "0.008"],
      expected: .importLog(
        ImportOptions(format: .getevent, log: "log.txt", screen: (390, 844), frameInterval: 0.008, out: nil))),
    Case(
      arguments: ["import", "cdp", "t.jsonl", "--out", "t.json"],
      expected: .importLog(ImportOptions(format: .cdp, log: "t.jsonl", out: "t.json"))),
    Case(arguments: ["import", "--help"], expected: .help(topic: "import")),
    Case(arguments: ["import", "cdp", "--help"], expected: .help(topic: "import")),
  ]

  @Test(arguments: good)
  func parses(_ c: Case) throws {
    #expect(try Parser.parse(c.arguments) == c.expected)
  }

  struct Bad: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var words: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let bad: [Bad] = [
    Bad(arguments: ["paint"], words: "unknown command 'paint'"),
    Bad(arguments: ["--frobnicate"], words: "unknown option '--frobnicate'"),
    Bad(arguments: ["render", "m.json"], words: "render needs --out DIR"),
    Bad(arguments: ["render", "--out", "o"], words: "render needs a MANIFEST"),
    Bad(
      arguments: ["render", "--script", "j.json", "--out", "o"], words: "--script JOB needs the photos to apply it to"),
    Bad(arguments: ["render", "a.json", "b.json", "--out", "o"], words: "takes one manifest; unexpected 'b.json'"),
    Bad(arguments: ["render", "m.json", "--out"], words: "--out needs a value"),
    Bad(arguments: ["render", "m.json", "--out", "o", "--jobs", "0"], words: "--jobs needs a whole number from 1"),
    Bad(arguments: ["render", "m.json", "--out", "o", "--jobs", "two"], words: "not 'two'"),
    Bad(arguments: ["render", "m.json", "--out", "o", "--quiet=yes"], words: "--quiet takes no value"),
    Bad(arguments: ["render", "m.json", "--out", "o", "--colour"], words: "unknown option '--colour' for render"),
    Bad(arguments: ["render", "m.json", "--out", "o", "--fail-on", "bad"], words: "--fail-on needs none, truncated"),
    Bad(arguments: ["render", "m.json", "--out", "o", "--job-timeout", "-1"], words: "--job-timeout needs seconds"),
    Bad(arguments: ["render", "m.json", "--out", "o", "--job-timeout", "nan"], words: "not 'nan'"),
    Bad(arguments: ["render", "m.json", "--out", "o", "--job-timeout", "1e9"], words: "to 86400"),
    Bad(arguments: ["render", "m.json", "--out", "o", "--stamp-cache-mb", "0"], words: "from 1 to 65536"),
    Bad(arguments: ["render", "m.json", "--out", "o", "--input-root="], words: "--input-root needs a folder"),
    Bad(arguments: ["render", "m.json", "--out", "o", "--allow-untrusted-loaders=1"], words: "takes no value"),
    Bad(arguments: ["schema", "extra"], words: "schema takes no arguments"),
    Bad(arguments: ["help", "paint"], words: "no help for 'paint'"),
    Bad(arguments: ["import"], words: "import needs a format"),
    Bad(arguments: ["import", "evtest", "x"], words: "not 'evtest'"),
    Bad(arguments: ["import", "getevent", "x"], words: "needs --screen WxH"),
    Bad(arguments: ["import", "getevent", "x", "--screen", "390"], words: "not '390'"),
    Bad(arguments: ["import", "getevent", "x", "--screen", "0x5"], words: "two positive numbers"),
    Bad(arguments: ["import", "getevent", "x", "--screen", "1x1", "--axis-max", "1.5x2"], words: "whole numbers"),
    Bad(arguments: ["import", "cdp", "x", "--screen", "1x1"], words: "unknown option '--screen'"),
    Bad(
      arguments: ["import", "getevent", "x", "--screen", "99999999999999999999x1"],
      words: "--screen sides must be at most 1000000 points"),
    Bad(
      arguments: ["import", "getevent", "x", "--screen", "1x1", "--axis-max", "1x99999999999999999999"],
      words: "whole numbers up to 1000000000"),
    Bad(arguments: ["import", "getevent", "x", "--screen", "1x1", "--frame-interval", "0"], words: "not '0'"),
    Bad(arguments: ["import", "getevent", "x", "--screen", "1x1", "--frame-interval", "nan"], words: "above 0"),
    Bad(arguments: ["import", "getevent", "x", "--screen", "1x1", "--frame-interval", "-0.008"], words: "above 0"),
    Bad(arguments: ["import", "getevent", "x", "--screen", "1x1", "--frame-interval", "5"], words: "at most 1"),
    Bad(arguments: ["import", "getevent", "x", "--screen", "1x1", "--frame-interval", "1e999"], words: "e.g. 0.008"),
    Bad(arguments: ["import", "cdp", "x", "--frame-interval", "0.008"], words: "unknown option '--frame-interval'"),
    Bad(arguments: ["import", "cdp"], words: "needs a LOG"),
  ]

  @Test(arguments: bad)
  func refuses(_ c: Bad) {
    do {
      let command = try Parser.parse(c.arguments)
      Issue.record("parsed as \(command)")
    } catch {
      // Parser.parse throws only UsageError (typed throws), so the message is all there is to check.
      #expect(error.message.contains(c.words), "\(error.message)")
    }
  }

  @Test func everyCommandHasItsOwnHelpWithAUsageLine() {
    for command in Usage.commands {
      #expect(Usage.text(for: command).contains("stampcam \(command)"))
    }
    #expect(Usage.overview.contains("EXAMPLES"))
  }

  // The parser and the help texts share `Usage.commands`: the unknown-command message once left out `import`.
  @Test func anUnknownCommandListsEveryCommand() throws {
    let error = try #require(throws: UsageError.self) { try Parser.parse(["paint"]) }
    for command in Usage.commands {
      #expect(error.message.contains(command), "\(error.message)")
    }
    #expect(error.message.contains("(commands: render, validate, explain, import, record, schema)"), "\(error.message)")
  }

  @Test func everyListedCommandIsParsed() throws {
    for command in Usage.commands {
      #expect(try Parser.parse([command, "--help"]) == .help(topic: command))
    }
  }
}
