import Foundation
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

  @Test(arguments: [
    (["record", "m.json", "--listen", "8080"], "--listen needs ADDR:PORT"),
    (["record", "m.json", "--listen", "0.0.0.0:99999"], "--listen needs ADDR:PORT"),
    (["record", "m.json", "--listen", ":8080"], "--listen needs an address"),
    (["record", "m.json", "--view", "0x5"], "--view needs WxH"),
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
