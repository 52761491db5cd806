import Foundation
import StampTestSupport
import Testing

@testable import stampcam

@Suite("stampcam record: its options")
struct RecordCommandTests {
  @Test func aNewJobsOptionsAndAListenAddressAreRead() throws {
    var expected = RecordOptions()
    expected.manifest = "m.json"
    expected.base = "p.jpg"
    expected.stamps = ["a.png", "b.png"]
    expected.view = (400, 800)
    expected.address = "::"
    expected.port = 8080
    expected.listens = true
    let command = try Parser.parse([
      "record", "m.json", "--base", "p.jpg", "--stamp", "a.png", "--stamp=b.png", "--view", "400x800",
      "--listen", "[::]:8080",
    ])
    #expect(command == .record(expected))
    var plain = RecordOptions()
    plain.manifest = "m.json"
    plain.job = "dragonfly"
    #expect(try Parser.parse(["record", "m.json", "--job", "dragonfly"]) == .record(plain))
    #expect(plain.address == "127.0.0.1" && plain.port == 0 && !plain.listens)
  }

  /// The smallest screen `--view` takes is 16 x 16 points, as a manifest's `view`.
  @Test func theSmallestViewIsSixteenPointsASide() throws {
    var expected = RecordOptions()
    expected.manifest = "m.json"
    expected.view = (16, 16)
    #expect(try Parser.parse(["record", "m.json", "--view", "16x16"]) == .record(expected))
  }

  @Test(arguments: [
    (["record", "m.json", "--listen", "8080"], "--listen needs ADDR:PORT"),
    (["record", "m.json", "--listen", "0.0.0.0:99999"], "--listen needs ADDR:PORT"),
    (["record", "m.json", "--listen", ":8080"], "--listen needs an address"),
    (["record", "m.json", "--view", "0x5"], "--view needs WxH"),
    (["record", "m.json", "--view", "1x1"], "--view sides must be at least 16 points"),
    (["record", "m.json", "--view", "390x15.9"], "--view sides must be at least 16 points"),
    (["record"], "record needs a MANIFEST"),
  ])
  func badOptionsAreUsageErrorsThatSayWhatIsNeeded(arguments: [String], message: String) {
    #expect {
      try Parser.parse(arguments)
    } throws: { error in
      (error as? UsageError)?.message.hasPrefix(message) == true
    }
  }

  /// Run as a user would (its message goes to the process's stderr, not the test run's): exit 2, the message says
  /// what goes with what, and no server starts (nothing printed on stdout, no manifest made).
  @Test func stampsWithoutABaseAreRefusedBeforeAnythingStarts() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    let result = try cli.run(["record", "m.json", "--stamp", "a.png"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("record: --stamp goes with --base"))
    #expect(result.stdout.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: cli.path("m.json")))
  }
}

extension RecordCommandTests {
  /// record runs until a signal and then exits 128 + its number, as a shell reports a process it stopped.
  @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
  func aSignalEndsRecordingWithItsStatus(_ number: Int32, _ status: Int32) throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    _ = try cli.jpeg("p.jpg", width: 16, height: 16, rgb: [90, 120, 150])
    let result = try cli.run(["record", "m.json", "--base", "p.jpg"]) { process in
      // Sent once record waits for it (blocked, so that the server's threads inherit the mask): before, the signal
      // would end the process by its default action, which is not what is tested here.
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline, !Self.blocks(number, process: process.processIdentifier) { usleep(20_000) }
      kill(process.processIdentifier, number)
    }
    #expect(result.status == status, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("open http://127.0.0.1:"), "\(result.stdout)")
  }

  /// True when the main thread of process `pid` blocks `signal` (its SigBlk mask in /proc).
  static func blocks(_ signal: Int32, process pid: Int32) -> Bool {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
      let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
    else { return false }
    return mask & (1 << UInt64(signal - 1)) != 0
  }
}
