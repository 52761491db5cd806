/// A 128-bit FNV-1a hash of text: the same bytes give the same digest on every machine and in every process
/// (Swift's `Hasher` is seeded per process). It detects changes; it is not meant to resist someone forging a
/// collision.
struct Digest: Sendable, Equatable {
  private var high: UInt64 = 0x6c62_272e_07bb_0142
  private var low: UInt64 = 0x62b8_2175_6295_c58d

  /// The digest of nothing.
  init() {}

  /// The digest of `text`.
  init(_ text: String) {
    add(text)
  }

  /// Feeds the UTF-8 bytes of `text`.
  mutating func add(_ text: String) {
    for byte in text.utf8 { add(byte) }
  }

  /// Feeds one byte: xor, then multiply by the FNV prime 2^88 + 0x13b, modulo 2^128.
  mutating func add(_ byte: UInt8) {
    low ^= UInt64(byte)
    let (carry, product) = low.multipliedFullWidth(by: 0x13b)
    high = high &* 0x13b &+ carry &+ (low << 24)
    low = product
  }

  /// 32 lower-case hexadecimal digits.
  var hex: String {
    func digits(_ value: UInt64) -> String {
      let text = String(value, radix: 16)
      return String(repeating: "0", count: 16 - text.count) + text
    }
    return digits(high) + digits(low)
  }
}
