import CHTTPGlue

/// An HTTP server embedded with libmicrohttpd (through CHTTPGlue): it reads requests and writes answers; this type
/// only hands each finished request to `handle` and its answer back.
///
/// Requests are answered on a few threads of libmicrohttpd's own, so `handle` must be safe to call concurrently.
/// The handle is `Sendable` because Swift never touches the C server after starting it, but to free it once, when
/// the handle goes away (after the requests in flight are answered).
package final class HTTPServer: @unchecked Sendable {
  /// The limits it starts with.
  package struct Limits: Sendable {
    /// Connections open at once.
    package var connections: UInt32 = 32
    /// Seconds a connection may stay idle before it is closed.
    package var idleSeconds: UInt32 = 30
    /// The largest body kept; a larger one reaches the handler as `bodyTooLarge`, with no bytes.
    package var maxBody = 1 << 20

    package init() {}
  }

  private let handler: Handler
  private let server: OpaquePointer

  /// The port it listens on.
  package let port: UInt16

  /// Starts listening on `address` (an IP literal) and `port` (0: a free one).
  ///
  /// - Throws: `RecordError.listen` when it cannot (a bad address, a port in use).
  package init(
    address: String, port: UInt16, limits: Limits = Limits(),
    handle: @escaping @Sendable (HTTPRequest) -> HTTPResponse
  ) throws(RecordError) {
    let handler = Handler(handle)
    self.handler = handler
    var message = [CChar](repeating: 0, count: 256)
    let context = Unmanaged.passUnretained(handler).toOpaque()
    let started = message.withUnsafeMutableBufferPointer { buffer in
      stamp_http_start(
        address, port, limits.connections, limits.idleSeconds, limits.maxBody, handleRequest, context,
        buffer.baseAddress, buffer.count)
    }
    guard let started else {
      throw .listen(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    server = started
    self.port = stamp_http_port(started)
  }

  deinit {
    stamp_http_stop(server)
  }

  /// The handler behind the C callback's context pointer, kept alive by the server.
  final class Handler: Sendable {
    let handle: @Sendable (HTTPRequest) -> HTTPResponse
    init(_ handle: @escaping @Sendable (HTTPRequest) -> HTTPResponse) { self.handle = handle }
  }
}

/// The C callback: copies the borrowed request into Swift values, asks the handler, and gives its answer to the
/// glue, which copies it before this returns.
private func handleRequest(
  _ context: UnsafeMutableRawPointer?, _ request: UnsafePointer<stamp_http_request>?, _ reply: OpaquePointer?
) {
  guard let context, let request else { return }
  let handler = Unmanaged<HTTPServer.Handler>.fromOpaque(context).takeUnretainedValue()
  let r = request.pointee
  func text(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
  let body = r.body.map { Array(UnsafeBufferPointer(start: $0, count: r.body_length)) } ?? []
  let response = handler.handle(
    HTTPRequest(
      method: text(r.method) ?? "", path: text(r.url) ?? "", host: text(r.host), origin: text(r.origin),
      contentType: text(r.content_type), body: body, bodyTooLarge: r.body_too_large != 0))
  let headers = response.headers.map { "\($0.0): \($0.1)" }.joined(separator: "\n")
  _ = response.body.withUnsafeBytes { bytes in
    stamp_http_respond(reply, UInt32(response.status), response.contentType, bytes.baseAddress, bytes.count, headers)
  }
}
