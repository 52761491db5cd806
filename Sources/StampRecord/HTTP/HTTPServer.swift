import CHTTPGlue
import Synchronization

/// An HTTP server embedded with libmicrohttpd (through CHTTPGlue): it reads requests and writes answers; this type
/// hands each request to `screen` as soon as its headers are in, and, unless screened out, the finished request to
/// `handle`, and their answers back.
///
/// Requests are answered on a few threads of libmicrohttpd's own, so both must be safe to call concurrently. The
/// handle is `Sendable` because Swift never touches the C server after starting it, but to stop and free it once.
package final class HTTPServer: Sendable {
  /// The limits it starts with.
  package struct Limits: Sendable {
    /// Connections that have not yet had a request through `screen`: when one more comes, the oldest is closed, so
    /// that slow clients holding connections open cannot keep out one that presents the token at once.
    package var unprovenConnections: UInt32 = 32
    /// Connections that have had a request through `screen`; when these and the others are all taken, a new
    /// connection is refused at once rather than left waiting.
    package var provenConnections: UInt32 = 32
    /// Seconds a request has to arrive whole, headers and body, from its connection's opening or previous answer;
    /// a connection that takes longer (a client sending a byte now and then) is closed.
    package var receiveSeconds: UInt32 = 5
    /// Seconds a connection may stay idle while its answer is sent before it is closed.
    package var idleSeconds: UInt32 = 30
    /// The largest body kept; a larger one reaches the handler as `bodyTooLarge`, with no bytes.
    package var maxBody = 1 << 20

    package init() {}
  }

  private let handler: Handler
  /// The C server until `stop`.
  private let server: Mutex<CServer?>

  /// The C server's pointer, which only `stop` uses, once.
  private struct CServer: @unchecked Sendable {
    let pointer: OpaquePointer
  }

  /// The port it listens on.
  package let port: UInt16

  /// Starts listening on `address` (an IP literal; an IPv6 one answers IPv4 clients too) and `port` (0: a free
  /// one). `screen` sees each request with its headers only (no body yet): an answer refuses it there, before its
  /// body is read or `100 Continue` sent; nil lets it go on to `handle`.
  ///
  /// - Throws: `RecordError.listen` when it cannot (a bad address, a port in use).
  package init(
    address: String, port: UInt16, limits: Limits = Limits(),
    screen: @escaping @Sendable (HTTPRequest) -> HTTPResponse? = { _ in nil },
    handle: @escaping @Sendable (HTTPRequest) -> HTTPResponse
  ) throws(RecordError) {
    let handler = Handler(screen: screen, handle: handle)
    self.handler = handler
    var message = [CChar](repeating: 0, count: 256)
    let context = Unmanaged.passUnretained(handler).toOpaque()
    var glueLimits = stamp_http_limits(
      unproven_connections: limits.unprovenConnections, proven_connections: limits.provenConnections,
      receive_seconds: limits.receiveSeconds, idle_seconds: limits.idleSeconds, max_body: limits.maxBody)
    let started = message.withUnsafeMutableBufferPointer { buffer in
      stamp_http_start(address, port, &glueLimits, handleRequest, context, buffer.baseAddress, buffer.count)
    }
    guard let started else {
      throw .listen(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    server = Mutex(CServer(pointer: started))
    self.port = stamp_http_port(started)
  }

  /// Stops listening and closes every connection at once, whatever its client is doing; a request being handled
  /// finishes first (its answer is not delivered). Later calls do nothing.
  package func stop() {
    let running = server.withLock { server in
      defer { server = nil }
      return server
    }
    if let running { stamp_http_stop(running.pointer) }
  }

  deinit {
    stop()
  }

  /// The functions behind the C callback's context pointer, kept alive by the server.
  final class Handler: Sendable {
    let screen: @Sendable (HTTPRequest) -> HTTPResponse?
    let handle: @Sendable (HTTPRequest) -> HTTPResponse
    init(
      screen: @escaping @Sendable (HTTPRequest) -> HTTPResponse?,
      handle: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) {
      self.screen = screen
      self.handle = handle
    }
  }
}

/// The C callback: copies the borrowed request into Swift values, asks the screen (headers only) or the handler,
/// and gives an answer to the glue, which copies it before this returns.
private func handleRequest(
  _ context: UnsafeMutableRawPointer?, _ request: UnsafePointer<stamp_http_request>?, _ reply: OpaquePointer?
) {
  guard let context, let request else { return }
  let handler = Unmanaged<HTTPServer.Handler>.fromOpaque(context).takeUnretainedValue()
  let r = request.pointee
  func text(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
  let body = r.body.map { Array(UnsafeBufferPointer(start: $0, count: r.body_length)) } ?? []
  let swiftRequest = HTTPRequest(
    method: text(r.method) ?? "", path: text(r.url) ?? "", host: text(r.host), origin: text(r.origin),
    contentType: text(r.content_type), body: body, bodyTooLarge: r.body_too_large != 0)
  let answer = r.headers_only != 0 ? handler.screen(swiftRequest) : handler.handle(swiftRequest)
  guard let response = answer else { return }
  let headers = response.headers.map { "\($0.0): \($0.1)" }.joined(separator: "\n")
  _ = response.body.withUnsafeBytes { bytes in
    stamp_http_respond(reply, UInt32(response.status), response.contentType, bytes.baseAddress, bytes.count, headers)
  }
}
