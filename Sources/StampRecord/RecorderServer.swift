import Foundation
import Synchronization

/// The recorder on the network: an `HTTPServer` whose every request goes through a fresh `AccessGuard` to the app,
/// screened by it as soon as its headers are in.
package struct RecorderServer: Sendable {
  package let server: HTTPServer
  package let access: AccessGuard

  /// Listens on `address` and `port` (0: a free one) with the limits of a page facing a network (see
  /// `HTTPServer.Limits`): 1 MB bodies, 5 s to send a request, 32 connections that have not shown the token (the
  /// oldest closed when more come) and 32 that have.
  ///
  /// - Throws: `RecordError.listen` when it cannot.
  package init(_ app: RecorderApp, address: String, port: UInt16, limits: HTTPServer.Limits = .init())
    throws(RecordError)
  {
    let token = AccessGuard(port: 0).token
    let access = Mutex(AccessGuard(token: token, port: port))
    server = try HTTPServer(
      address: address, port: port, limits: limits,
      screen: { request in app.screen(request, guard: access.withLock { $0 }) },
      handle: { request in app.handle(request, guard: access.withLock { $0 }) })
    let ready = AccessGuard(token: token, port: server.port)
    access.withLock { $0 = ready }
    self.access = ready
  }

  /// The page's address for a browser at `host` (an IP address, or `localhost`).
  package func url(host: String) -> String {
    let name = host.contains(":") ? "[\(host)]" : host
    return "http://\(name):\(access.port)/\(access.token)/"
  }

  /// The page's addresses for a server listening on `address`: that address, or, for `0.0.0.0` and `::` (every
  /// address), one for each address of this machine's interfaces that are up (IPv4 first; for `::` IPv4 as well,
  /// which it answers too), loopback first. IPv6 link-local addresses are left out (a browser needs their zone).
  package func urls(listening address: String) -> [String] {
    guard address == "0.0.0.0" || address == "::" else { return [url(host: address)] }
    var hosts: [(rank: Int, host: String)] = []
    var list: UnsafeMutablePointer<ifaddrs>?
    if getifaddrs(&list) == 0 {
      var next = list
      while let entry = next {
        defer { next = entry.pointee.ifa_next }
        guard let socket = entry.pointee.ifa_addr, entry.pointee.ifa_flags & UInt32(IFF_UP) != 0 else { continue }
        let family = Int32(socket.pointee.sa_family)
        guard family == AF_INET || (family == AF_INET6 && address == "::") else { continue }
        var text = [CChar](repeating: 0, count: 64)
        let raw = UnsafeRawPointer(socket)
        var written: UnsafePointer<CChar>?
        if family == AF_INET {
          var v4 = raw.loadUnaligned(as: sockaddr_in.self)
          written = inet_ntop(AF_INET, &v4.sin_addr, &text, 64)
        } else {
          var v6 = raw.loadUnaligned(as: sockaddr_in6.self)
          written = inet_ntop(AF_INET6, &v6.sin6_addr, &text, 64)
        }
        guard written != nil else { continue }
        let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if host.lowercased().hasPrefix("fe80:") { continue }
        let loopback = entry.pointee.ifa_flags & UInt32(IFF_LOOPBACK) != 0
        hosts.append(((loopback ? 0 : 2) + (family == AF_INET ? 0 : 1), host))
      }
      freeifaddrs(list)
    }
    var seen = Set<String>()
    let unique = hosts.sorted { $0.rank < $1.rank }.map(\.host).filter { seen.insert($0).inserted }
    return unique.isEmpty ? [url(host: address == "::" ? "::1" : "127.0.0.1")] : unique.map(url(host:))
  }
}
