import Foundation
import StampImport
import StampTestFolders
import Testing

@testable import stampcam

/// `import` wrote what no manifest accepts, with exit 0. Each log below gives an event the
/// manifest refuses; import now exits 2, names the log's line and writes nothing.
@Suite("Import writes only what a manifest takes")
struct ImportCommandTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var format: String
    var log: String
    var extra: [String] = []
    var words: [String]
    var testDescription: String { name }
  }

  static func cdp(_ points: [String]) -> String {
    #"{"method": "Input.dispatchTouchEvent", "params": {"type": "touchStart", "touchPoints": ["#
      + points.joined(separator: ", ") + "]}}\n"
  }

  static let cases: [Case] = [
    // The second frame's report is at 4.0 s, a second before the first's (5.0): t = -1, on line 6.
    Case(
      name: "getevent time going back", format: "getevent",
      log: """
        [    5.000000] EV_ABS       ABS_MT_TRACKING_ID   00000001
        [    5.000000] EV_ABS       ABS_MT_POSITION_X    00000064
        [    5.000000] EV_ABS       ABS_MT_POSITION_Y    00000064
        [    5.000000] EV_SYN       SYN_REPORT           00000000
        [    4.000000] EV_ABS       ABS_MT_POSITION_X    00000065
        [    4.000000] EV_SYN       SYN_REPORT           00000000
        [    6.000000] EV_ABS       ABS_MT_TRACKING_ID   ffffffff
        [    6.000000] EV_SYN       SYN_REPORT           00000000

        """,
      extra: ["--screen", "400x800", "--axis-max", "1000x1000"], words: ["line 6:", "t -1 is too small (at least 0)"]),
    Case(
      name: "CDP x = 1e300", format: "cdp", log: cdp([#"{"x": 1e300, "y": 5, "id": 0}"#]),
      words: ["line 1:", "x 1e+300 is too large (at most 1000000)"]),
    Case(
      name: "CDP 1,000 touch points in one event", format: "cdp",
      log: "\n" + cdp((0..<1000).map { #"{"x": \#($0 % 300), "y": 5, "id": \#($0)}"# }),
      words: ["line 2:", "more than 32 touches down at once"]),
  ]

  @Test(arguments: cases)
  func aLogNoManifestTakesIsRefusedByLine(_ c: Case) throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try cli.write("log.txt", c.log)
    let result = try cli.run(["import", c.format, "log.txt", "--out", "out.json"] + c.extra)
    #expect(result.status == 2, "\(result.stderr)")
    for word in c.words { #expect(result.stderr.contains("log.txt: " + word) || result.stderr.contains(word)) }
    #expect(result.stderr.contains("no manifest takes"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: cli.path("out.json")))
  }

  /// The log is read a line at a time from its file: LF, CRLF and a lone CR end lines as a log split whole does,
  /// a last line without an end is read, and a line over 1 MiB is refused by its number.
  @Test func theLogFileIsReadALineAtATime() throws {
    let folder = try TestFolder("stampcam-import-tests")
    defer { folder.remove() }
    let text = "a\r\nb\n\nc\rd\ne"
    _ = try folder.write("log.txt", text)
    func all(_ lines: LogLines) throws -> [String] {
      var out: [String] = []
      let next = try lines.open()
      while let line = try next() { out.append(line) }
      return out
    }
    #expect(try all(LogFile.lines(folder.path("log.txt"))) == ["a", "b", "", "c", "d", "e"])
    #expect(try all(LogLines(text: text)) == ["a", "b", "", "c", "d", "e"])
    _ = try folder.write("long.txt", "x\n" + String(repeating: "y", count: (1 << 20) + 10) + "\n")
    #expect {
      _ = try all(LogFile.lines(folder.path("long.txt")))
    } throws: { "\($0)" == "line 2: the line is over 1048576 bytes long" }
  }
}

extension ImportCommandTests {
  /// The getevent import reads its log twice (the devices, then the chosen one's events), which a pipe, a FIFO or
  /// `/dev/stdin` cannot give: the second reading found nothing ("no finger touched down"). Such a log is now copied
  /// once into a temporary file and read from there, and gives what the same log in a file gives.
  @Test func aGeteventLogFromAFIFOImportsAsTheSameLogInAFile() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    let log = """
      [    5.000000] EV_ABS       ABS_MT_TRACKING_ID   00000001
      [    5.000000] EV_ABS       ABS_MT_POSITION_X    00000064
      [    5.000000] EV_ABS       ABS_MT_POSITION_Y    000000c8
      [    5.000000] EV_SYN       SYN_REPORT           00000000
      [    5.050000] EV_ABS       ABS_MT_TRACKING_ID   ffffffff
      [    5.050000] EV_SYN       SYN_REPORT           00000000

      """
    try cli.write("log.txt", log)
    let options = ["--screen", "400x800", "--axis-max", "1000x1000"]
    let file = try cli.run(["import", "getevent", "log.txt", "--out", "file.json"] + options)
    #expect(file.status == 0, "\(file.stderr)")
    #expect(mkfifo(cli.path("log.fifo"), 0o600) == 0)
    let writer = Process()
    writer.executableURL = URL(fileURLWithPath: "/bin/sh")
    // The writer opens the FIFO a second time after the log, so that a second reading of it (as before) finds an
    // empty one and fails at once rather than waiting for ever; it is stopped once the import is done.
    writer.arguments = [
      "-c", "exec 3>\"$1\"; cat \"$0\" >&3; exec 3>&-; sleep 0.5; exec 3>\"$1\"", cli.path("log.txt"),
      cli.path("log.fifo"),
    ]
    try writer.run()
    let fifo = try cli.run(["import", "getevent", "log.fifo", "--out", "fifo.json"] + options)
    writer.terminate()
    writer.waitUntilExit()
    #expect(fifo.status == 0, "\(fifo.stderr)")
    let expected = try String(contentsOfFile: cli.path("file.json"), encoding: .utf8)
    #expect(try String(contentsOfFile: cli.path("fifo.json"), encoding: .utf8) == expected)
    // The tap's point from the axis ranges, 1001 positions (0...1000) over the screen: 100 x 400 / 1001 = 39.96
    // and 200 x 800 / 1001 = 159.84 (to two places).
    #expect(expected.contains(#""x": 39.96, "y": 159.84"#), "\(expected)")
  }
}
