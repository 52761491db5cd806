import Foundation
import StampFiles
import Testing

/// The resume records and the outputs' claims under hostile setups: a loose umask, a `.stampcam` that is a link, a
/// record of a gigabyte, another process holding an output, a policy changed between runs.
@Suite("render: the resume ledger under hostile setups")
struct ResumeLedgerCommandTests {
  /// One job drawing a 4 x 4 stamp on a 16 x 16 photo into `o/x.png`.
  static func prepare(_ cli: CommandRunner, stamp rgb: [UInt8] = [255, 0, 0], manifest: String = "m.json") throws {
    try cli.ppm("photo.png", width: 16, height: 16, rgb: [40, 40, 40])
    #expect(chmod(cli.path("photo.png"), 0o644) == 0)
    try cli.ppm("stamp.png", width: 4, height: 4, rgb: rgb)
    try cli.write(
      manifest,
      #"{"version": 1, "jobs": [{"id": "j", "base": "photo.png", "output": "o/x.png", "stamps": [{"id": "s", "image": "stamp.png", "center": [8, 8]}]}]}"#
    )
  }

  func mode(_ path: String) -> mode_t {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
  }

  /// The records in `out/.stampcam` (lock files and temporaries left out).
  func records(_ cli: CommandRunner, _ folder: String = "out/.stampcam") -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: cli.path(folder))) ?? []
    return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".lock") }
  }

  /// Under umask 000 the folders stampcam made were 0777 and the record 0666, so any local user could forge
  /// a record or put a link in a folder. Now the folders it makes are 0755, `.stampcam` 0700 and records 0600; the
  /// output keeps its photo's 0644.
  @Test func foldersAndRecordsStayPrivateUnderUmask000() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try Self.prepare(cli)
    let result = try cli.run(["render", "m.json", "--out", "new/out"], after: "umask 000")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(mode(cli.path("new")) == 0o755 && mode(cli.path("new/out")) == 0o755)
    #expect(mode(cli.path("new/out/o")) == 0o755)
    #expect(mode(cli.path("new/out/.stampcam")) == 0o700)
    let made = records(cli, "new/out/.stampcam")
    #expect(made.count == 1)
    #expect(made.allSatisfy { mode(cli.path("new/out/.stampcam/" + $0)) == 0o600 })
    #expect(mode(cli.path("new/out/o/x.png")) == 0o644)
  }

  /// With `.stampcam` a link to another folder, records went there. Now the run is refused before a job
  /// starts (status 2), naming it, and nothing lands in the other folder.
  @Test func aStampcamLinkSendsNoRecordElsewhere() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try Self.prepare(cli)
    try FileManager.default.createDirectory(atPath: cli.path("out"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: cli.path("elsewhere"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: cli.path("out/.stampcam"), withDestinationPath: "../elsewhere")
    let result = try cli.run(["render", "m.json", "--out", "out", "--resume"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("out/.stampcam") && result.stderr.contains("symbolic link"), "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: cli.path("elsewhere")).isEmpty)
    #expect(cli.files("out").isEmpty)
  }

  /// A record's temporary file left by a run killed with kill -9 stayed for ever (its name was not one the
  /// sweep knows, and `.stampcam` was never swept). Now records are staged under `TemporaryName`s and the next run
  /// sweeps `.stampcam` as it sweeps the folders outputs go in; a temporary named the old way is removed once it
  /// is a day old (the name does not say which machine made it), and a recent one is left alone.
  @Test func aDeadRunsRecordTemporaryIsSwept() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try Self.prepare(cli)
    // pid_max on Linux is at most 4194304: pid 2147483000 belongs to no process.
    let dead = ".0123456789abcdef0123456789abcdef.stampcam-\(TemporaryName.machine)-2147483000-0badf00d.tmp"
    let (old, recent) = ("0123456789abcdef0123456789abcdef.tmp-4242-99", "fedcba9876543210fedcba9876543210.tmp-4242-7")
    for name in [dead, old, recent] { try cli.write("out/.stampcam/" + name, "stampcam resume record") }
    let twoDaysAgo = Date(timeIntervalSinceNow: -2 * 86_400)
    try FileManager.default.setAttributes(
      [.modificationDate: twoDaysAgo], ofItemAtPath: cli.path("out/.stampcam/" + old))
    #expect(try cli.run(["render", "m.json", "--out", "out"]).status == 0)
    let left = try FileManager.default.contentsOfDirectory(atPath: cli.path("out/.stampcam"))
    #expect(!left.contains(dead) && !left.contains(old) && left.contains(recent))
    #expect(left.count == 2)
  }

  /// A 1 GB sparse file in place of a record was read whole (2.1 GB of memory, many seconds). Now its size is
  /// checked on the open file and it is refused unread: the job is rendered again and the report says why.
  @Test func aGigabyteRecordIsRefusedUnread() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try Self.prepare(cli)
    #expect(try cli.run(["render", "m.json", "--out", "out"]).status == 0)
    let name = try #require(records(cli).first)
    let fd = open(cli.path("out/.stampcam/" + name), O_WRONLY | O_TRUNC)
    #expect(fd >= 0 && ftruncate(fd, 1 << 30) == 0)
    close(fd)
    let start = Date()
    let result = try cli.run(["render", "m.json", "--out", "out", "--resume", "--report", "-"])
    #expect(Date().timeIntervalSince(start) < 10)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains(#""resume": "redone: record refused (.stampcam/\#(name) holds 1073741824 bytes"#))
    #expect(
      try cli.run(["render", "m.json", "--out", "out", "--resume", "--report", "-"]).stdout.contains("up to date"))
  }

  /// Two runs writing one output into one --out at once both wrote it, and the first run's --resume then
  /// called the second's picture up to date. Now each output is claimed with a lock (flock) that any process sees:
  /// while another process holds it past the wait (here `--job-timeout 1`: 1 s), the job fails, saying so, and
  /// writes nothing.
  @Test func anOutputHeldByAnotherProcessIsNotWritten() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try Self.prepare(cli)
    #expect(try cli.run(["render", "m.json", "--out", "out"]).status == 0)
    try FileManager.default.removeItem(atPath: cli.path("out/o/x.png"))
    // The lock file's name: FNV-1a 128 of the UTF-8 bytes "o/x.png" (worked out with Python's integers), ".lock".
    let lock = cli.path("out/.stampcam/b686cbb83f4ff78d7ee654335b754b14.lock")
    // One process (the shell, then sleep) holds the lock: stopping it releases it.
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: "/bin/sh")
    holder.arguments = ["-c", "exec 9>\"$0\"; flock 9; echo locked; exec sleep 30", lock]
    let said = Pipe()
    holder.standardOutput = said
    try holder.run()
    defer { holder.terminate() }
    #expect(said.fileHandleForReading.availableData == Data("locked\n".utf8))
    let result = try cli.run(["render", "m.json", "--out", "out", "--resume", "--job-timeout", "1"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("output o/x.png: another stampcam run is writing it"), "\(result.stderr)")
    #expect(result.stderr.contains("of waiting; not writing it twice"), "\(result.stderr)")
    #expect(cli.files("out").isEmpty)
    holder.terminate()
    holder.waitUntilExit()
    #expect(try cli.run(["render", "m.json", "--out", "out", "--resume"]).status == 0)
    #expect(cli.files("out") == ["o/x.png"])
  }

  /// Starts a process that holds the claim on `o/x.png` in `out` for `seconds`, and returns once it holds it.
  static func holdClaim(_ cli: CommandRunner, seconds: Int) throws -> Process {
    // The lock file's name: FNV-1a 128 of the UTF-8 bytes "o/x.png" (worked out with Python's integers), ".lock".
    let lock = cli.path("out/.stampcam/b686cbb83f4ff78d7ee654335b754b14.lock")
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: "/bin/sh")
    holder.arguments = ["-c", "exec 9>\"$0\"; flock 9; echo locked; exec sleep \(seconds)", lock]
    let said = Pipe()
    holder.standardOutput = said
    try holder.run()
    #expect(said.fileHandleForReading.availableData == Data("locked\n".utf8))
    return holder
  }

  /// A job whose output another run holds is not failed: it waits for the claim, then finds what that run left. Here
  /// the output and its record are this job's own (as when three `--resume` runs of one manifest share an `--out`):
  /// skipped, saying why, exit 0, the output untouched. With the output gone instead, it is rendered after the wait.
  @Test func anOutputAnotherRunMadeMeanwhileIsSkippedAfterTheWait() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try Self.prepare(cli)
    #expect(try cli.run(["render", "m.json", "--out", "out"]).status == 0)
    let before = try FileManager.default.attributesOfItem(atPath: cli.path("out/o/x.png"))[.systemFileNumber]
    var holder = try Self.holdClaim(cli, seconds: 4)
    let skipped = try cli.run(["render", "m.json", "--out", "out", "--resume", "--report", "-"])
    holder.waitUntilExit()
    #expect(skipped.status == 0, "\(skipped.stderr)")
    #expect(skipped.stdout.contains(#""status": "skipped""#), "\(skipped.stdout)")
    #expect(skipped.stdout.contains(#""resume": "skipped: up to date, made by another run meanwhile""#))
    let after = try FileManager.default.attributesOfItem(atPath: cli.path("out/o/x.png"))[.systemFileNumber]
    #expect(before as? Int == after as? Int)

    try FileManager.default.removeItem(atPath: cli.path("out/o/x.png"))
    holder = try Self.holdClaim(cli, seconds: 4)
    let rendered = try cli.run(["render", "m.json", "--out", "out", "--report", "-"])
    holder.waitUntilExit()
    #expect(rendered.status == 0, "\(rendered.stderr)")
    #expect(rendered.stdout.contains(#""status": "ok""#), "\(rendered.stdout)")
    #expect(cli.files("out") == ["o/x.png"])
  }

  /// Three `--resume` runs of one manifest into one `--out` at once (each exited 1 with most of its jobs "failed:
  /// another stampcam run is writing it"): every run exits 0, every job of each is written or skipped, never
  /// failed, and every output is there.
  @Test func threeResumeRunsAtOnceAllSucceed() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try cli.ppm("photo.png", width: 64, height: 48, rgb: [40, 40, 40])
    try cli.ppm("stamp.png", width: 8, height: 8, rgb: [255, 0, 0])
    let jobs = (0..<36).map { i in
      #"{"id": "j\#(i)", "base": "photo.png", "output": "o/x\#(i).png", "stamps": [{"id": "s", "image": "stamp.png", "center": [20, 20]}]}"#
    }
    try cli.write("m.json", #"{"version": 1, "jobs": ["# + jobs.joined(separator: ",") + "]}")
    let runs = try (0..<3).map { k in
      let run = Process()
      run.executableURL = CommandRunner.executable
      run.arguments = [
        "render", "m.json", "--out", "out", "--resume", "--quiet", "--jobs", "2", "--report", "r\(k).jsonl",
      ]
      run.currentDirectoryURL = cli.url
      run.standardError = FileHandle.nullDevice
      try run.run()
      return run
    }
    for run in runs { run.waitUntilExit() }
    #expect(runs.map(\.terminationStatus) == [0, 0, 0])
    for k in 0..<3 {
      let lines = try String(contentsOfFile: cli.path("r\(k).jsonl"), encoding: .utf8).split(separator: "\n")
      #expect(lines.count == 36)
      for line in lines {
        #expect(line.contains(#""status": "ok""#) || line.contains(#""status": "skipped""#), "\(line)")
      }
    }
    #expect(Set(cli.files("out")) == Set((0..<36).map { "o/x\($0).png" }))
  }

  /// A run with `--fail-on none` rendered a truncated photo; `--resume` with the default policy then skipped
  /// it as up to date, where a fresh run fails it. Now the policy is part of the record.
  @Test func resumeUnderAnotherPolicyRendersAgain() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    let whole = try cli.jpeg("whole.jpg", width: 64, height: 64, rgb: [90, 120, 150])
    // Cut halfway through the entropy-coded data, after the start-of-scan marker.
    let scan = try #require((0..<whole.count - 1).first { whole[$0] == 0xFF && whole[$0 + 1] == 0xDA })
    try cli.write("photo.jpg", bytes: Array(whole.prefix((scan + whole.count) / 2)))
    try cli.write("m.json", #"{"version": 1, "jobs": [{"id": "j", "base": "photo.jpg", "output": "x.png"}]}"#)
    let lenient = try cli.run(["render", "m.json", "--out", "out", "--fail-on", "none", "--max-pixels", "200000000"])
    #expect(lenient.status == 0, "\(lenient.stderr)")
    let strict = try cli.run(["render", "m.json", "--out", "out", "--resume", "--report", "-"])
    #expect(strict.status == 1)
    #expect(strict.stdout.contains(#""resume": "redone: policy changed""#), "\(strict.stdout)")
    #expect(strict.stdout.contains("truncated"), "\(strict.stdout)")
  }

  /// Two runs at once, as it happens: two runs of two manifests (red and blue stamps, the same 24 outputs) into one --out at
  /// once. Whichever wrote each output, the red run's --resume afterwards calls up to date only outputs that hold
  /// the red run's picture (byte for byte what a red run alone writes), and every claim refused is named.
  @Test func twoRunsAtOnceNeverTakeEachOthersPictureForTheirOwn() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try cli.ppm("photo.png", width: 96, height: 64, rgb: [40, 40, 40])
    for (name, rgb) in [("red", [UInt8(255), 0, 0]), ("blue", [0, 0, 255])] {
      try cli.ppm(name + ".png", width: 8, height: 8, rgb: rgb)
      let jobs = (0..<24).map { i in
        #"{"id": "j\#(i)", "base": "photo.png", "output": "o/x\#(i).png", "stamps": [{"id": "s", "image": "\#(name).png", "center": [20, 20]}]}"#
      }
      try cli.write(name + ".json", #"{"version": 1, "jobs": ["# + jobs.joined(separator: ",") + "]}")
    }
    #expect(try cli.run(["render", "red.json", "--out", "alone", "--quiet"]).status == 0)
    let blue = Process()
    blue.executableURL = CommandRunner.executable
    blue.arguments = ["render", "blue.json", "--out", "out", "--quiet", "--jobs", "2"]
    blue.currentDirectoryURL = cli.url
    blue.standardError = FileHandle.nullDevice
    try blue.run()
    let red = try cli.run(["render", "red.json", "--out", "out", "--quiet", "--jobs", "2"])
    blue.waitUntilExit()
    for line in red.stderr.split(separator: "\n") {
      #expect(line.contains("another stampcam run is writing it"), "\(line)")
    }
    let held = try (0..<24).map { i in
      try Data(contentsOf: URL(fileURLWithPath: cli.path("out/o/x\(i).png")))
        == Data(contentsOf: URL(fileURLWithPath: cli.path("alone/o/x\(i).png")))
    }
    let resumed = try cli.run(["render", "red.json", "--out", "out", "--resume", "--report", "-", "--quiet"])
    #expect(resumed.status == 0, "\(resumed.stderr)")
    for (i, isRed) in held.enumerated() where !isRed {
      #expect(!resumed.stdout.contains(#""id": "j\#(i)", "status": "skipped""#), "j\(i) holds the blue picture")
    }
  }
}
