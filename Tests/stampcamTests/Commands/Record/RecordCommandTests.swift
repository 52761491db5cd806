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

extension RecordCommandTests {
  /// SIGTERM ends record within its grace however many requests are half sent: the server closes every
  /// connection at once instead of waiting for each to time out.
  @Test func aSignalEndsRecordingPromptlyWithManyHalfSentRequests() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    _ = try cli.jpeg("p.jpg", width: 16, height: 16, rgb: [90, 120, 150])
    let port = try #require(Self.freePort())
    nonisolated(unsafe) var elapsed = Double.infinity
    nonisolated(unsafe) var opened = 0
    let result = try cli.run(["record", "m.json", "--base", "p.jpg", "--listen", "127.0.0.1:\(port)"]) { process in
      let pid = process.processIdentifier
      let deadline = Date().addingTimeInterval(30)
      var sockets: [Int32] = []
      defer { sockets.forEach { close($0) } }
      while Date() < deadline, sockets.count < 24 {
        if let fd = Self.connect(port: port) {
          let half = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Half: ".utf8)
          _ = half.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
          sockets.append(fd)
        } else {
          usleep(50_000)
        }
      }
      opened = sockets.count
      while Date() < deadline, !Self.blocks(SIGTERM, process: pid) { usleep(20_000) }
      usleep(300_000)
      let start = Date()
      kill(pid, SIGTERM)
      process.waitUntilExit()
      elapsed = Date().timeIntervalSince(start)
    }
    #expect(opened == 24)
    #expect(result.status == 143, "\(result.stderr)")
    #expect(elapsed < 5, "record took \(elapsed) s to stop")
  }

  /// The --listen note says who can open the page: the network for an address others reach, this machine alone
  /// for a loopback one.
  @Test func theListenNoteSaysWhoCanReachThePage() {
    #expect(!RecordCommand.listenNote(address: "127.0.0.1", port: 8080).contains("anyone"))
    #expect(!RecordCommand.listenNote(address: "::1", port: 8080).contains("anyone"))
    #expect(RecordCommand.listenNote(address: "0.0.0.0", port: 8080).contains("anyone on the network"))
    #expect(RecordCommand.listenNote(address: "::", port: 8080).contains("anyone on the network"))
    #expect(RecordCommand.listenNote(address: "192.168.1.20", port: 8080).contains("anyone who can reach 192.168.1.20"))
  }

  /// A port no one listens on now, on 127.0.0.1.
  static func freePort() -> UInt16? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    return bound ? UInt16(bigEndian: address.sin_port) : nil
  }

  /// A connection to 127.0.0.1 at `port`, or nil when refused.
  static func connect(port: UInt16) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    if !connected { close(fd) }
    return connected ? fd : nil
  }
}
