import Foundation
import Testing

@testable import StampRecord

/// A real server on loopback, with a screen that lets through requests whose path starts with `/token` (standing for
/// the recorder's access check) and a handler that answers 200.
@Suite("HTTPServer: dual stack, slow and idle clients, the screen before the body, and a prompt stop")
struct HTTPServerTests {
  static func server(address: String = "127.0.0.1", limits: HTTPServer.Limits = .init()) throws -> HTTPServer {
    try HTTPServer(
      address: address, port: 0, limits: limits,
      screen: { request in request.path.hasPrefix("/token") ? nil : .error(404, "not found") },
      handle: { request in .json("{\"length\": \(request.body.count)}\n") })
  }

  static func get(_ path: String) -> String {
    "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
  }

  @Test func listeningOnTheIPv6AnyAddressAnswersIPv4ClientsToo() throws {
    let server = try Self.server(address: "::")
    defer { server.stop() }
    let v4 = try #require(LoopbackClient("127.0.0.1", port: server.port))
    v4.send(Self.get("/token"))
    #expect(v4.statusLine() == "HTTP/1.1 200 OK")
    let v6 = try #require(LoopbackClient("::1", port: server.port))
    v6.send(Self.get("/token"))
    #expect(v6.statusLine() == "HTTP/1.1 200 OK")
  }

  /// 32 clients that send part of their headers and then nothing hold no place from one that presents the token,
  /// and are themselves closed once the time to send a request passes.
  @Test func slowClientsDoNotKeepOutOneWithTheTokenAndAreClosedInTime() throws {
    var limits = HTTPServer.Limits()
    limits.receiveSeconds = 2
    let server = try Self.server(limits: limits)
    defer { server.stop() }
    var slow: [LoopbackClient] = []
    for _ in 0..<32 {
      let client = try #require(LoopbackClient(port: server.port, timeout: 0.2))
      client.send("GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
      slow.append(client)
    }
    let started = Date()
    let visitor = try #require(LoopbackClient(port: server.port))
    visitor.send(Self.get("/token/api/state"))
    #expect(visitor.statusLine() == "HTTP/1.1 200 OK")
    #expect(Date().timeIntervalSince(started) < 1.5)
    // After the 2 s they had, and a watchdog round, every slow client is gone.
    Thread.sleep(forTimeInterval: 2.6)
    let open = slow.filter { !$0.isClosed() }.count
    #expect(open == 0)
  }

  /// More than the connections kept: the oldest that never showed the token are closed (the oldest as the server
  /// took them, its threads accepting in parallel), and a new client is answered, never left waiting.
  @Test func aFloodOfConnectionsClosesTheOldestWithoutTheTokenAndLeavesNoneWaiting() throws {
    let server = try Self.server()
    defer { server.stop() }
    var flood: [LoopbackClient] = []
    for _ in 0..<80 {
      if let client = LoopbackClient(port: server.port, timeout: 0.05) { flood.append(client) }
    }
    let visitor = try #require(LoopbackClient(port: server.port))
    visitor.send(Self.get("/token"))
    #expect(visitor.statusLine() == "HTTP/1.1 200 OK")
    #expect(flood.count == 80)
    // The server takes the connections in a moment: within 5 s at most 32 of them are left open.
    let deadline = Date().addingTimeInterval(5)
    var open = flood.count
    repeat {
      open = flood.filter { !$0.isClosed() }.count
    } while open > 32 && Date() < deadline
    #expect(open <= 32)
  }

  /// With every place taken (connections that showed the token, and as many that have not), a new connection is
  /// closed at once instead of waiting in the listen queue.
  @Test func aConnectionPastEveryPlaceIsRefusedAtOnceNotQueued() throws {
    var limits = HTTPServer.Limits()
    limits.unprovenConnections = 4
    limits.provenConnections = 4
    let server = try Self.server(limits: limits)
    defer { server.stop() }
    var held: [LoopbackClient] = []
    for _ in 0..<4 {
      let client = try #require(LoopbackClient(port: server.port))
      client.send("GET /token HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      #expect(client.statusLine() == "HTTP/1.1 200 OK")
      held.append(client)
    }
    for _ in 0..<4 { held.append(try #require(LoopbackClient(port: server.port))) }
    Thread.sleep(forTimeInterval: 0.3)
    let started = Date()
    let late = try #require(LoopbackClient(port: server.port, timeout: 3))
    late.send(Self.get("/token"))
    #expect(late.receive().isEmpty)
    #expect(Date().timeIntervalSince(started) < 1)
  }

  /// `Expect: 100-continue` is answered with the screen's refusal, not with `100 Continue`, when the screen
  /// refuses; with `100 Continue` when it lets the request on.
  @Test func continueIsSentOnlyAfterTheScreenLetsTheRequestOn() throws {
    let server = try Self.server()
    defer { server.stop() }
    let head = { (path: String) in
      "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
        + "Expect: 100-continue\r\n\r\n"
    }
    let refused = try #require(LoopbackClient(port: server.port))
    refused.send(head("/elsewhere"))
    #expect(refused.statusLine() == "HTTP/1.1 404 Not Found")
    let allowed = try #require(LoopbackClient(port: server.port))
    allowed.send(head("/token"))
    #expect(allowed.statusLine() == "HTTP/1.1 100 Continue")
    allowed.send("{}")
    #expect(allowed.receive().contains("{\"length\": 2}"))
  }

  /// Stopping closes every connection at once, however many requests are half sent (libmicrohttpd alone waits
  /// for them to time out).
  @Test func stopReturnsAtOnceWithManyHalfSentRequests() throws {
    let server = try Self.server()
    var half: [LoopbackClient] = []
    for _ in 0..<24 {
      let client = try #require(LoopbackClient(port: server.port))
      client.send("GET /token HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ")
      half.append(client)
    }
    Thread.sleep(forTimeInterval: 0.3)
    let started = Date()
    server.stop()
    #expect(Date().timeIntervalSince(started) < 2)
    #expect(half.allSatisfy { $0.isClosed() })
  }
}
