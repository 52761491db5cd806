import Testing

@testable import StampRecord

@Suite struct AccessGuardTests {
  let access = AccessGuard(token: "0123456789abcdef0123456789abcdef", port: 8080)

  @Test func aRequestWithTheTokenHostAndOwnOriginGoesOnWithTheRestOfItsPath() {
    let request = HTTPRequest(
      method: "POST", path: "/0123456789abcdef0123456789abcdef/api/frames", host: "127.0.0.1:8080",
      origin: "http://127.0.0.1:8080")
    #expect(access.check(request) == .allowed(rest: "/api/frames"))
    #expect(
      access.check(HTTPRequest(method: "GET", path: "/0123456789abcdef0123456789abcdef", host: "localhost:8080"))
        == .allowed(rest: ""))
  }

  @Test(
    arguments: [
      ("/0123456789abcdef0123456789abcdee/", "127.0.0.1:8080", nil),  // one digit off
      ("/0123456789abcdef0123456789abcdef0/", "127.0.0.1:8080", nil),  // longer
      ("/0123456789abcdef/", "127.0.0.1:8080", nil),  // shorter
      ("/", "127.0.0.1:8080", nil),
      ("/0123456789abcdef0123456789abcdef/", "evil.example:8080", nil),  // DNS rebinding
      ("/0123456789abcdef0123456789abcdef/", "127.0.0.1:80", nil),  // another port
      ("/0123456789abcdef0123456789abcdef/", "1.2.3.4.5:8080", nil),
      ("/0123456789abcdef0123456789abcdef/", "127.0.0.1:8080", "http://evil.example"),  // another page
      // Addresses in other spellings than the canonical one.
      ("/0123456789abcdef0123456789abcdef/", "+1.+2.3.4:8080", nil),
      ("/0123456789abcdef0123456789abcdef/", "127.0.0.01:8080", nil),
      ("/0123456789abcdef0123456789abcdef/", "127.1:8080", nil),
      ("/0123456789abcdef0123456789abcdef/", "[0:0::1]:8080", nil),
      ("/0123456789abcdef0123456789abcdef/", "[::1%lo]:8080", nil),
      ("/0123456789abcdef0123456789abcdef/", "[::FFFF:127.0.0.1]:8080", nil),
      ("/0123456789abcdef0123456789abcdef/", "[]:8080", nil),
    ] as [(String, String, String?)])
  func aRequestWithoutTheTokenOrFromElsewhereIsRefused(path: String, host: String, origin: String?) {
    let verdict = access.check(HTTPRequest(method: "GET", path: path, host: host, origin: origin))
    guard case .refused = verdict else {
      Issue.record("\(path) \(host) \(origin ?? "") was let through")
      return
    }
  }

  @Test(arguments: ["127.0.0.1:8080", "192.168.1.20:8080", "[::1]:8080", "[fd00::2]:8080", "[::ffff:127.0.0.1]:8080"])
  func aCanonicalAddressAtThePortIsOurs(host: String) {
    let request = HTTPRequest(method: "GET", path: "/0123456789abcdef0123456789abcdef/", host: host)
    #expect(access.check(request) == .allowed(rest: "/"))
  }

  @Test func aFreshTokenHas128RandomBitsInHex() {
    let a = AccessGuard(port: 1).token
    let b = AccessGuard(port: 1).token
    #expect(a.count == 32 && a.allSatisfy(\.isHexDigit))
    #expect(a != b)
  }
}
