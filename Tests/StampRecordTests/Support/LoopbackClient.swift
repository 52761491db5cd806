import Foundation

/// A raw TCP connection to a server on this machine (127.0.0.1 or ::1 only), for tests that send requests in
/// pieces, or never finish them, as a browser would not. Every read waits at most `timeout` seconds.
final class LoopbackClient {
  let fd: Int32

  /// Connects to `host` (`127.0.0.1` or `::1`) at `port`; nil when the connection is refused.
  init?(_ host: String = "127.0.0.1", port: UInt16, timeout: Double = 3) {
    precondition(host == "127.0.0.1" || host == "::1", "tests talk to loopback only")
    let v6 = host.contains(":")
    fd = socket(v6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    var connected: Int32
    if v6 {
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = port.bigEndian
      inet_pton(AF_INET6, host, &address.sin6_addr)
      connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
      }
    } else {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      inet_pton(AF_INET, host, &address.sin_addr)
      connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
    guard connected == 0 else {
      close(fd)
      return nil
    }
  }

  deinit { close(fd) }

  /// Sends `text`; false when the connection is closed.
  @discardableResult
  func send(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
  }

  /// What arrives until the server closes the connection, `limit` bytes arrive, or the timeout passes.
  func receive(limit: Int = 1 << 16) -> String {
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while out.count < limit {
      let n = recv(fd, &buffer, buffer.count, 0)
      guard n > 0 else { break }
      out += buffer[0..<n]
      if let text = String(bytes: out, encoding: .utf8), Self.complete(text) { break }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The first line of the answer (`HTTP/1.1 200 OK`), or "" when none came.
  func statusLine() -> String {
    String(receive().split(separator: "\r\n", maxSplits: 1).first ?? "")
  }

  /// Whether the server has closed the connection (a read returns its end at once), within `timeout`.
  func isClosed() -> Bool {
    var byte: UInt8 = 0
    let n = recv(fd, &byte, 1, 0)
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
  }

  /// Whether `text` holds a whole answer: its headers, and as many body bytes as its Content-Length says.
  private static func complete(_ text: String) -> Bool {
    guard let end = text.range(of: "\r\n\r\n") else { return false }
    if text.hasPrefix("HTTP/1.1 100") { return true }
    let head = text[..<end.lowerBound].lowercased()
    guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
      let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
    else { return false }
    return text.utf8.count - text[..<end.upperBound].utf8.count >= length
  }
}
