import Foundation
import StampTestFolders
import StampTestSupport
import Testing

/// A manifest piped on standard input (`render -`, `validate -`, `explain -`, `/dev/stdin`): read through a real
/// pipe, told JSON Lines from a JSON document by its first line, named `-` in errors, its paths from the current
/// folder, and nothing of it left behind.
@Suite("A manifest piped on standard input")
struct PipedManifestTests {
  /// Two photos in `in/` and a stamp.
  static func folder() throws -> CommandRunner {
    let cli = try CommandRunner()
    try FileManager.default.createDirectory(atPath: cli.path("in"), withIntermediateDirectories: true)
    try cli.jpeg("in/a.jpg", width: 64, height: 48, rgb: [200, 40, 40])
    try cli.ppm("in/b.png", width: 40, height: 50) { x, y in [UInt8(x * 5), UInt8(y * 5), 90] }
    try cli.ppm("in/stamp.png", width: 8, height: 8, rgb: [250, 250, 0])
    return cli
  }

  /// Three jobs with paths as `prefix` + a name: "in/" from the top folder, "" from `in/` itself.
  static func jobs(_ prefix: String) -> [String] {
    [
      #"{"id": "a", "base": "\#(prefix)a.jpg", "output": "a.jpg", "stamps": [{"id": "s", "image": "\#(prefix)stamp.png", "center": [20, 20], "rotation": 30}]}"#,
      #"{"id": "b", "base": "\#(prefix)b.png", "output": "sub/b.png", "stamps": [{"id": "s", "image": "\#(prefix)stamp.png", "center": [10, 30]}]}"#,
      #"{"id": "c", "base": "\#(prefix)a.jpg", "output": "c.webp", "settings": {"quality": 80}}"#,
    ]
  }

  func bytes(_ cli: CommandRunner, _ name: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: cli.path(name)))
  }

  /// The same jobs rendered from `in/m.jsonl` (paths from the manifest's folder) and piped from the top folder
  /// (paths from the current folder) write the same files, byte for byte; the piped run leaves nothing in
  /// `out/.stampcam` but the resume records (32 hex digits each), and errors of its jobs name `-`.
  @Test func aPipedStreamRendersWhatItsFileRenders() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try cli.write("in/m.jsonl", Self.jobs("").joined(separator: "\n") + "\n")
    try cli.write("piped.jsonl", Self.jobs("in/").joined(separator: "\n") + "\n")
    let file = try cli.run(["render", "in/m.jsonl", "--out", "file", "--quiet"])
    #expect(file.status == 0, "\(file.stderr)")
    let piped = try cli.shell(#"cat piped.jsonl | "$STAMPCAM" render - --out out --quiet"#)
    #expect(piped.status == 0, "\(piped.stderr)")
    #expect(cli.files("out") == ["a.jpg", "c.webp", "sub/b.png"])
    for name in cli.files("file") { #expect(try bytes(cli, "out/" + name) == bytes(cli, "file/" + name), "\(name)") }
    let kept = try FileManager.default.contentsOfDirectory(atPath: cli.path("out/.stampcam"))
    #expect(kept.count == 3 && kept.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) }, "\(kept)")
    // A job that fails while rendering names the stream and its line.
    try cli.write("bad.jsonl", Self.jobs("in/")[0] + "\n" + #"{"id": "gone", "base": "in/none.jpg"}"# + "\n")
    let failed = try cli.shell(#"cat bad.jsonl | "$STAMPCAM" render - --out out2"#)
    #expect(failed.status == 1)
    #expect(failed.stderr.contains(#"stampcam: error: -:2: job "gone": in/none.jpg: "#), "\(failed.stderr)")
  }

  /// A JSON document spread over lines, the same on one line, and JSON Lines opening with the header line are
  /// each read as what they are: validate counts their jobs.
  @Test(arguments: [
    (
      "{\n  \"version\": 1,\n  \"jobs\": [\n    {\"id\": \"x\", \"base\": \"in/a.jpg\"},\n    {\"id\": \"y\", \"base\": \"in/b.png\"}\n  ]\n}\n",
      2
    ),
    ("{\"version\": 1, \"jobs\": [{\"id\": \"x\", \"base\": \"in/a.jpg\"}]}", 1),
    (
      "\n{\"version\": 1, \"defaults\": {\"settings\": {\"quality\": 70}}}\n{\"id\": \"x\", \"base\": \"in/a.jpg\"}\n\n{\"id\": \"y\", \"base\": \"in/b.png\"}\n{\"id\": \"z\", \"base\": \"in/b.png\", \"output\": \"z.png\"}\n",
      3
    ),
  ])
  func eachFormatIsToldByItsFirstLine(_ manifest: String, jobs: Int) throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try cli.write("m", manifest)
    let result = try cli.shell(#"cat m | "$STAMPCAM" validate -"#)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("-: valid (\(jobs) job\(jobs == 1 ? "" : "s"))"), "\(result.stderr)")
  }

  /// Errors name `-`, the line and the JSON path, in JSON Lines and in a document alike; `render -` of an invalid
  /// manifest writes nothing and takes back the `--out` it made.
  @Test func errorsNameTheStreamAndTheLine() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    let lines = Self.jobs("in/")[0] + "\n\n" + #"{"id": "q", "bse": "in/a.jpg"}"# + "\n"
    try cli.write("bad.jsonl", lines)
    for command in ["validate -", "render - --out made"] {
      let result = try cli.shell(#"cat bad.jsonl | "$STAMPCAM" "# + command)
      #expect(result.status == 2)
      #expect(
        result.stderr.contains(#"stampcam: error: -:3: jobs[1].bse: unknown key (did you mean "base"?)"#),
        "\(result.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: cli.path("made")))
    try cli.write("bad.json", "{\"version\": 1,\n\"jobs\": [\n{\"id\": \"q\",\n \"base\": 7}]}\n")
    let document = try cli.shell(#"cat bad.json | "$STAMPCAM" validate /dev/stdin"#)
    #expect(document.status == 2)
    #expect(document.stderr.contains("stampcam: error: -:4:"), "\(document.stderr)")
    #expect(document.stderr.contains("jobs[0].base"), "\(document.stderr)")
  }

  /// `render /dev/stdin` is `render -`, and `explain -` describes the piped jobs.
  @Test func devStdinAndExplainReadThePipe() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try cli.write("piped.jsonl", Self.jobs("in/").joined(separator: "\n") + "\n")
    let render = try cli.shell(#"cat piped.jsonl | "$STAMPCAM" render /dev/stdin --out out --quiet"#)
    #expect(render.status == 0, "\(render.stderr)")
    #expect(cli.files("out") == ["a.jpg", "c.webp", "sub/b.png"])
    let explain = try cli.shell(#"cat piped.jsonl | "$STAMPCAM" explain - --job b"#)
    #expect(explain.status == 0, "\(explain.stderr)")
    #expect(explain.stdout.contains(#"{"id": "b", "gestures": []"#), "\(explain.stdout)")
    #expect(!explain.stdout.contains(#""id": "a""#))
  }

  /// A job whose photos' list is standard input cannot have it: the pipe is the manifest. Refused, naming the job's
  /// field, before anything is written.
  @Test func aPhotosListOnStandardInputIsRefused() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try cli.write("list.jsonl", #"{"id": "wm", "photos": {"list": "-"}, "output": "{stem}.png"}"# + "\n")
    for command in ["validate -", "render - --out out", "explain -"] {
      let result = try cli.shell(#"cat list.jsonl | "$STAMPCAM" "# + command)
      #expect(result.status == 2, "\(command)")
      #expect(
        result.stderr.contains("-:1: jobs[0].photos: standard input: already read as the manifest"), "\(result.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: cli.path("out")))
  }

  /// While `render -` waits for the rest of its manifest, the spool is open in `out/.stampcam` with no name there
  /// (its name was removed as soon as it was made); Ctrl-C then leaves no file behind.
  @Test func theSpoolHasNoNameAndCtrlCLeavesNothing() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    let input = Pipe()
    let process = Process()
    process.executableURL = CommandRunner.executable
    process.arguments = ["render", "-", "--out", "out", "--quiet"]
    process.currentDirectoryURL = cli.url
    process.standardInput = input
    process.standardError = Pipe()
    try process.run()
    try input.fileHandleForWriting.write(contentsOf: Data((Self.jobs("in/")[0] + "\n").utf8))
    var spool: String?
    for _ in 0..<500 where spool == nil {
      Thread.sleep(forTimeInterval: 0.01)
      let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd")) ?? []
      spool = fds.lazy.compactMap {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process.processIdentifier)/fd/\($0)")
      }
      .first { $0.contains("/out/.stampcam/.stdin-") }
    }
    let open = try #require(spool, "no spool open in out/.stampcam")
    #expect(open.hasSuffix(" (deleted)"), "\(open)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: cli.path("out/.stampcam")).isEmpty)
    process.interrupt()
    process.waitUntilExit()
    try? input.fileHandleForWriting.close()
    // Ended by the signal, as any reader of a pipe (a shell reports 130), even though this test runner starts its
    // children with SIGINT blocked.
    #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT)
    #expect(cli.files("out").isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: cli.path("out/.stampcam")).isEmpty)
  }

  /// A line longer than a manifest's limit (64 MiB) stops the reading there: refused with its line, exit 2, in
  /// about the time it takes to pipe it, and nothing is left in `$TMPDIR`.
  @Test func aLineOverTheLimitIsRefusedAsItArrives() throws {
    let cli = try Self.folder()
    defer { cli.remove() }
    try FileManager.default.createDirectory(atPath: cli.path("tmp"), withIntermediateDirectories: true)
    let result = try cli.shell(
      #"{ echo '{"id": "a", "base": "in/a.jpg"}'; head -c 67108870 /dev/zero | tr '\0' x; } | "#
        + #"TMPDIR="$PWD/tmp" "$STAMPCAM" validate -"#)
    #expect(result.status == 2)
    #expect(result.stderr.contains("-:2: line is longer than the limit of 67108864 bytes"), "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: cli.path("tmp")).isEmpty)
  }
}
