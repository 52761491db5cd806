import Foundation

/// The checks every request passes before it reaches the recording: the secret token at the start of its path,
/// compared in constant time; a `Host` that names this server by an IP address or `localhost` at its port (so a
/// page of another site whose name was made to point here, DNS rebinding, is refused); an `Origin`, when sent, that
/// is this server's own (so no other page can post to it; no CORS header is ever sent).
package struct AccessGuard: Sendable {
  /// 32 lower-case hex digits: 128 random bits.
  package let token: String
  /// The port the server listens on; `Host` must name it.
  package let port: UInt16

  /// A guard with a fresh random token.
  package init(port: UInt16) {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    self.init(token: bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined(), port: port)
  }

  package init(token: String, port: UInt16) {
    self.token = token
    self.port = port
  }

  /// What a request is refused for, or nil when it may go on; `rest` is its path after `/TOKEN` (empty for `/TOKEN`
  /// itself).
  package enum Verdict: Equatable, Sendable {
    case allowed(rest: String)
    case refused(status: Int, reason: String)
  }

  package func check(_ request: HTTPRequest) -> Verdict {
    guard let host = request.host, hostIsOurs(host) else {
      return .refused(status: 421, reason: "the Host header does not name this server")
    }
    if let origin = request.origin, origin != "http://" + host {
      return .refused(status: 403, reason: "requests from another origin are refused")
    }
    let path = Array(request.path.utf8)
    let key = Array(token.utf8)
    // The first segment against the token, every byte compared whatever the others are.
    let segment = path.count > key.count ? Array(path[1...key.count]) : Array(repeating: 0, count: key.count)
    var difference: UInt8 = path.first == UInt8(ascii: "/") ? 0 : 1
    for (a, b) in zip(segment, key) { difference |= a ^ b }
    let restStart = key.count + 1
    guard difference == 0, path.count > key.count, path.count == restStart || path[restStart] == UInt8(ascii: "/")
    else {
      return .refused(status: 404, reason: "not found")
    }
    let rest = String(decoding: path[restStart...], as: UTF8.self)
    return .allowed(rest: rest)
  }

  /// `localhost`, an IPv4 address or a bracketed IPv6 address, at our port: never a name some DNS could answer.
  /// Only the canonical spelling of an address passes (`1.2.3.4`, `[::1]`, as browsers send them), so that no
  /// other text (`+1.+2.3.4`, `01.2.3.4`, `[0:0::1]`) can stand for it.
  private func hostIsOurs(_ host: String) -> Bool {
    let suffix = ":\(port)"
    guard host.hasSuffix(suffix) else { return false }
    let name = String(host.dropLast(suffix.count))
    if name == "localhost" { return true }
    if name.hasPrefix("[") && name.hasSuffix("]") {
      let inner = String(name.dropFirst().dropLast())
      return Self.canonical(inner, family: AF_INET6) == inner
    }
    return Self.canonical(name, family: AF_INET) == name
  }

  /// The canonical text of the IP address `text` of `family`, or nil when it is none.
  static func canonical(_ text: String, family: Int32) -> String? {
    guard text.utf8.count < 64, !text.contains("%") else { return nil }
    var address = [UInt8](repeating: 0, count: 16)
    guard inet_pton(family, text, &address) == 1 else { return nil }
    var out = [CChar](repeating: 0, count: 64)
    guard inet_ntop(family, address, &out, socklen_t(out.count)) != nil else { return nil }
    return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
