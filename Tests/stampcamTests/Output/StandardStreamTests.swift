import Foundation
import Testing

/// Standard streams that are closed, full, or a pipe nobody reads: no file takes a closed stream's number, and a
/// lost stdout (3) or stderr (4) is an exit status of its own, never a silent 0.
@Suite("Standard streams: closed, full, broken")
struct StandardStreamTests {
  /// A photo of 20 x 10 = 200 pixels and two jobs: with --max-pixels 100 both fail, each with an error on stderr.
  static func folder() throws -> CommandRunner {
    let cli = try CommandRunner()
    try cli.ppm("p.ppm", width: 20, height: 10, rgb: [90, 60, 30])
    try cli.write(
      "m.json",
      #"{"version": 1, "jobs": [{"id": "a", "base": "p.ppm", "output": "a.png"}, "#
        + #"{"id": "b", "base": "p.ppm", "output": "b.png"}]}"#)
    try cli.write("t.cdp.jsonl", #"{"type": "touchStart", "touchPoints": [{"x": 10, "y": 20, "id": 1}]}"# + "\n")
    return cli
  }

  /// Each report line is one JSON object with an id: nothing else was written into the report.
  static func reportIds(_ cli: CommandRunner) throws -> [String] {
    let text = try String(contentsOfFile: cli.path("r.jsonl"), encoding: .utf8)
    return try text.split(separator: "\n").map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return try #require(object?["id"] as? String, "not a report line: \(line)")
    }.sorted()
  }

  /// With stderr closed the report used to be opened as descriptor 2, so the jobs' error text landed in it as lines
  /// that are not JSON. Closed stdin and stdout too: the report still holds the two report lines and nothing else.
  @Test(arguments: ["2>&-", "<&- >&- 2>&-", ">&- 2>&-"])
  func aClosedStreamNeverLendsItsNumberToTheReport(_ redirections: String) throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    let arguments = ["render", "m.json", "--out", "out", "--report", "r.jsonl", "--max-pixels", "100"]
    let result = try cli.run(arguments, redirections: redirections)
    // Both jobs failed: 1 outranks the lost stderr (4 replaces only success).
    #expect(result.status == 1)
    #expect(try Self.reportIds(cli) == ["a", "b"])
  }

  /// A closed stdout is held by a pipe nobody reads, not by /dev/null: a report sent to it by name fails and
  /// says so, and the jobs' outputs go with it, instead of a run that ends 0 with the report in /dev/null. The
  /// README says that such a report is standard output, lost with status 3; it used to end with status 1, the
  /// status of a failed job, as if the report were any file.
  @Test(arguments: ["/dev/stdout", "/proc/self/fd/1"])
  func aReportNamingAClosedStdoutFailsAsTheReadmeSays(_ report: String) throws {
    let readme = try String(
      contentsOf: ScaleOutRecipeTests.repository.appendingPathComponent("README.md"), encoding: .utf8)
    let sentence = try #require(
      Self.sentences(of: readme).first { $0.contains("`--report` that names the file standard output is") })
    #expect(sentence.contains("`/dev/stdout`, `/proc/self/fd/1`") && sentence.contains("status 3"), "\(sentence)")
    #expect(readme.contains("- 3: standard output could not be written (closed, full, or a pipe nobody reads)"))

    let cli = try Self.folder()
    defer { cli.remove() }
    let arguments = ["render", "m.json", "--out", "out", "--report", report, "--allow-untrusted-loaders"]
    let result = try cli.run(arguments, redirections: ">&-")
    #expect(result.status == 3, "\(result.stderr)")
    #expect(result.stderr.contains("stampcam: error: \(report): cannot write the report: bad file descriptor"))
    #expect(result.stderr.hasSuffix("stampcam: error: cannot write to standard output: bad file descriptor\n"))
    #expect(cli.files("out").isEmpty, "\(cli.files("out"))")
  }

  /// A report named by the file stdout is, when stdout is a pipe nobody reads (`| head` gone): status 3 too.
  @Test func aReportNamingStdoutIntoAPipeNobodyReadsIsStatus3() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    let arguments = ["render", "m.json", "--out", "out", "--report", "/dev/stdout", "--allow-untrusted-loaders"]
    let result = try cli.runIntoClosedPipe(arguments)
    #expect(result.status == 3, "\(result.stderr)")
    #expect(result.stderr.contains("stampcam: error: /dev/stdout: cannot write the report: broken pipe"))
    #expect(cli.files("out").isEmpty, "\(cli.files("out"))")
  }

  /// A report named by the file stdout was redirected to, appended to (`>>`): its earlier lines are kept (opening
  /// it again truncated them), and the report's lines follow.
  @Test func aReportNamingStdoutsFileAppendsAsStdoutDoes() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try cli.write("r.jsonl", "")
    let arguments = ["render", "m.json", "--out", "out", "--report", "r.jsonl", "--allow-untrusted-loaders"]
    let result = try cli.run(arguments, after: "printf '{\"id\": \"earlier\"}\\n' > r.jsonl; exec >> r.jsonl")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try Self.reportIds(cli) == ["a", "b", "earlier"])
  }

  /// `text`'s sentences, its lines joined: each ends at a full stop followed by a space or the end of a paragraph.
  static func sentences(of text: String) -> [String] {
    text.components(separatedBy: "\n\n").flatMap { paragraph in
      paragraph.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        .components(separatedBy: ". ")
    }
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var testDescription: String { arguments.joined(separator: " ") }
  }

  /// Every command that prints its result on stdout: with the default --max-pixels and the PPM loader allowed, each
  /// succeeds (status 0) when stdout can be written.
  static let printing: [Case] = [
    Case(arguments: ["explain", "m.json", "--allow-untrusted-loaders"]),
    Case(arguments: ["import", "cdp", "t.cdp.jsonl"]),
    Case(arguments: ["schema"]),
    Case(arguments: ["--help"]),
    Case(arguments: ["help", "render"]),
    Case(arguments: ["--version"]),
  ]

  @Test(arguments: printing)
  func printsWhenStdoutIsWritable(_ c: Case) throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    let result = try cli.run(c.arguments)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(!result.stdout.isEmpty)
  }

  /// A full disk or a closed stdout: explain, import and schema used to exit 0 with their output lost.
  @Test(arguments: printing, [(">/dev/full", "no space left on device"), (">&-", "bad file descriptor")])
  func anUnwritableStdoutIsStatus3(_ c: Case, _ stream: (redirection: String, reason: String)) throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    let result = try cli.run(c.arguments, redirections: stream.redirection)
    #expect(result.status == 3)
    #expect(result.stderr.hasSuffix("stampcam: error: cannot write to standard output: \(stream.reason)\n"))
  }

  /// `stampcam ... | head` once head has gone: EPIPE, since SIGPIPE is ignored so as not to die mid-batch.
  @Test(arguments: printing)
  func aPipeNobodyReadsIsStatus3(_ c: Case) throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    let result = try cli.runIntoClosedPipe(c.arguments)
    #expect(result.status == 3)
    #expect(result.stderr.hasSuffix("stampcam: error: cannot write to standard output: broken pipe\n"))
  }

  /// A parent may hand down a non-blocking pipe (node does): a full pipe is EAGAIN, not an error, and every byte
  /// arrives once it is read. stdio gave up there: 65,536 of the item's bytes arrived, with status 0.
  @Test func aNonBlockingStdoutGetsEveryByte() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    // 5,000 events of about 60 bytes each: some 300 KB of JSON, several times a pipe's buffer.
    var log = #"{"type": "touchStart", "touchPoints": [{"x": 10, "y": 20, "id": 1}], "timestamp": 0}"# + "\n"
    for i in 1..<5000 {
      log += #"{"type": "touchMove", "touchPoints": [{"x": \#(10 + i % 50), "y": 20, "id": 1}], "#
      log += #""timestamp": \#(Double(i) / 100)}"# + "\n"
    }
    log += #"{"type": "touchEnd", "touchPoints": [], "timestamp": 60}"# + "\n"
    try cli.write("big.cdp.jsonl", log)
    let blocking = try cli.run(["import", "cdp", "big.cdp.jsonl"])
    #expect(blocking.status == 0 && blocking.stdout.utf8.count > 4 * 65_536, "\(blocking.stdout.utf8.count)")
    let late = try cli.runIntoNonBlockingPipe(["import", "cdp", "big.cdp.jsonl"], readingAfter: 1)
    #expect(late.status == 0, "\(late.stderr)")
    #expect(late.stdout == blocking.stdout, "\(late.stdout.utf8.count) of \(blocking.stdout.utf8.count) bytes")
  }

  /// explain could not replay either job (status 1), and its JSON is lost as well: the lost result outranks it.
  @Test func aLostStdoutOutranksAJobsFailure() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    let described = try cli.run(["explain", "m.json", "--max-pixels", "100"])
    #expect(described.status == 1)
    let lost = try cli.run(["explain", "m.json", "--max-pixels", "100"], redirections: ">/dev/full")
    #expect(lost.status == 3)
    #expect(lost.stderr.contains("job \"a\"") && lost.stderr.contains("cannot write to standard output"))
  }

  /// `--report -` to a full stdout: the report's own message, no later job, and status 3 rather than 1.
  @Test func aReportOnAFullStdoutIsStatus3() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    let arguments = ["render", "m.json", "--out", "out", "--report", "-", "--allow-untrusted-loaders", "--quiet"]
    let result = try cli.run(arguments, redirections: ">/dev/full")
    #expect(result.status == 3)
    #expect(result.stderr.contains("stampcam: error: -: cannot write the report: no space left on device"))
    #expect(result.stderr.contains("stampcam: error: cannot write to standard output: no space left on device"))
    #expect(cli.files("out").isEmpty, "\(cli.files("out"))")
  }

  /// validate says "m.json: valid" on stderr; when that cannot be written the run is status 4, and a manifest
  /// that is invalid stays status 2.
  @Test func aLostStderrIsStatus4OnlyInPlaceOfSuccess() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    let valid = try cli.run(["validate", "m.json", "--allow-untrusted-loaders"], redirections: "2>/dev/full")
    #expect(valid.status == 4)
    let closed = try cli.run(["validate", "m.json", "--allow-untrusted-loaders"], redirections: "2>&-")
    #expect(closed.status == 4)
    try cli.write("bad.json", #"{"version": 1, "jobs": [{"base": "p.ppm", "centre": 1}]}"#)
    let invalid = try cli.run(["validate", "bad.json"], redirections: "2>/dev/full")
    #expect(invalid.status == 2)
    let quiet = try cli.run(
      ["render", "m.json", "--out", "out", "--quiet", "--allow-untrusted-loaders"], redirections: "2>/dev/full")
    #expect(quiet.status == 0)
    let summary = try cli.run(
      ["render", "m.json", "--out", "out2", "--allow-untrusted-loaders"], redirections: "2>/dev/full")
    #expect(summary.status == 4)
    #expect(cli.files("out2") == ["a.png", "b.png"])
  }
}
