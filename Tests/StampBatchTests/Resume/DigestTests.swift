import Testing

@testable import StampBatch

@Suite("Digest: FNV-1a, 128 bits")
struct DigestTests {
  /// The published FNV-1a 128-bit test vectors (the empty string is the offset basis).
  @Test(arguments: [
    ("", "6c62272e07bb014262b821756295c58d"), ("a", "d228cb696f1a8caf78912b704e4a8964"),
    ("foobar", "343e1662793c64bf6f0d3597ba446f18"),
  ])
  func matchesTheReferenceVectors(text: String, hex: String) {
    #expect(Digest(text).hex == hex)
  }
}
