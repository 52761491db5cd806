import Synchronization

/// The recorder on the network: an `HTTPServer` whose every request goes through a fresh `AccessGuard` to the app.
package struct RecorderServer: Sendable {
  package let server: HTTPServer
  package let access: AccessGuard

  /// Listens on `address` and `port` (0: a free one) with the limits of a page facing a network: 1 MB bodies,
  /// 32 connections (16 per client), 30 s idle.
  ///
  /// - Throws: `RecordError.listen` when it cannot.
  package init(_ app: RecorderApp, address: String, port: UInt16) throws(RecordError) {
    let token = AccessGuard(port: 0).token
    let access = Mutex(AccessGuard(token: token, port: port))
    server = try HTTPServer(address: address, port: port) { request in
      app.handle(request, guard: access.withLock { $0 })
    }
    let ready = AccessGuard(token: token, port: server.port)
    access.withLock { $0 = ready }
    self.access = ready
  }

  /// The page's address for a browser at `host` (an IP address, or `localhost`).
  package func url(host: String) -> String {
    let name = host.contains(":") ? "[\(host)]" : host
    return "http://\(name):\(access.port)/\(access.token)/"
  }
}
