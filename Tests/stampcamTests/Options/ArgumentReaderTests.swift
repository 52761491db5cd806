import Testing

@testable import stampcam

/// The reader every command's options go through, on a command made up for the test: what a new subcommand gets
/// by declaring its options.
@Suite("Argument reader: one declaration, parser and synopsis")
struct ArgumentReaderTests {
  struct Probe: Subcommand {
    var file = ""
    var size = 0
    var loud = false
    var name: String?

    static let name = "probe"
    static let forms = [
      Form(
        operand: "FILE",
        options: [
          .value("--size", "N", "a size", required: "how big") { (probe, text) throws(UsageError) in
            probe.size = try OptionValue.integer(text, option: "--size", range: 1...9)
          },
          .flag("--loud", alias: "-l", "say more") { $0.loud = true },
          .value("--name", "TEXT", "a name") { $0.name = $1 },
        ], start: Probe(), setOperand: { $0.file = $1 })
    ]
    static let help = Help(about: "A probe.")

    func run() -> Int32 { 0 }
  }

  static func parse(_ arguments: [String]) throws(UsageError) -> Probe? {
    try Probe.parse(arguments[...]).runnable as? Probe
  }

  @Test func bothSpellingsOfAValueAndTheOperandAnywhere() throws {
    let spaced = try Self.parse(["--size", "3", "f.txt", "-l", "--name", "x=y"])
    #expect(spaced == Probe(file: "f.txt", size: 3, loud: true, name: "x=y"))
    let joined = try Self.parse(["f.txt", "--size=3", "--loud", "--name=x=y"])
    #expect(joined == spaced)
    // After `--` an argument that looks like an option is the operand; `-` alone always is.
    #expect(try Self.parse(["--size", "1", "--", "--loud"])?.file == "--loud")
    #expect(try Self.parse(["-", "--size", "1"])?.file == "-")
    #expect(try Probe.parse(["f", "--help"]) == .help(topic: "probe"))
  }

  struct Bad: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var message: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let bad: [Bad] = [
    Bad(arguments: ["f"], message: "probe needs --size N (how big)"),
    Bad(arguments: ["--size", "2"], message: "probe needs a FILE (see 'stampcam help probe')"),
    Bad(arguments: ["f", "g", "--size", "2"], message: "probe takes one file; unexpected 'g'"),
    Bad(arguments: ["f", "--size"], message: "--size needs a value"),
    Bad(arguments: ["f", "--size", "10"], message: "--size needs a whole number from 1 to 9, not '10'"),
    Bad(arguments: ["f", "--loud=yes", "--size", "2"], message: "--loud takes no value"),
    Bad(arguments: ["f", "--lod"], message: "unknown option '--lod' for probe (probe takes --loud, --name, --size)"),
  ]

  @Test(arguments: bad)
  func refuses(_ c: Bad) {
    #expect(throws: UsageError(message: c.message)) { try Self.parse(c.arguments) }
  }

  @Test func theSynopsisAndTheListComeFromTheDeclarations() {
    #expect(Usage.synopsis(of: Probe.self) == ["stampcam probe FILE --size N [--loud] [--name TEXT]"])
    let help = Usage.text(of: Probe.self)
    #expect(
      help == """
        USAGE
          stampcam probe FILE --size N [--loud] [--name TEXT]

        A probe.

        OPTIONS
          --size N           a size
          --loud, -l         say more
          --name TEXT        a name
        """)
  }
}
