extension PhotoGlob {
  /// One element of a name pattern.
  enum Token: Sendable, Hashable {
    /// Exactly this byte (or, with `ignoreCase`, its other ASCII case).
    case byte(UInt8)
    /// `?`: one byte.
    case anyByte
    /// `*`: any run of bytes, none too.
    case anyBytes
    /// `[...]`: one byte in the closed ranges, or out of them when `negated`.
    case set(ranges: [ClosedRange<UInt8>], negated: Bool)

    /// Whether `name` (one path component, no `/`) matches `tokens`.
    static func matches(_ tokens: [Token], _ name: UnsafeBufferPointer<UInt8>, ignoreCase: Bool) -> Bool {
      if name.first == UInt8(ascii: "."), let first = tokens.first, first == .anyBytes || first == .anyByte {
        return false
      }
      // Greedy with a return to the last `*`: every other token takes one byte, so the latest `*` taking one byte
      // more is the only choice left worth trying (an earlier `*` taking more could not reach further).
      var token = 0
      var byte = 0
      var lastStar: (token: Int, byte: Int)? = nil
      while byte < name.count {
        if token < tokens.count, tokens[token] == .anyBytes {
          lastStar = (token, byte)
          token += 1
        } else if token < tokens.count, tokens[token].matches(name[byte], ignoreCase: ignoreCase) {
          token += 1
          byte += 1
        } else if let star = lastStar {
          lastStar = (star.token, star.byte + 1)
          token = star.token + 1
          byte = star.byte + 1
        } else {
          return false
        }
      }
      while token < tokens.count, tokens[token] == .anyBytes { token += 1 }
      return token == tokens.count
    }

    /// Whether this token, which is not `*`, takes `byte`.
    private func matches(_ byte: UInt8, ignoreCase: Bool) -> Bool {
      switch self {
      case .anyBytes: return false
      case .anyByte: return true
      case .byte(let wanted):
        return byte == wanted || (ignoreCase && Token.otherCase(byte) == wanted)
      case .set(let ranges, let negated):
        let inside = ranges.contains { $0.contains(byte) || (ignoreCase && $0.contains(Token.otherCase(byte))) }
        return inside != negated
      }
    }

    /// An ASCII letter's other case; any other byte itself.
    private static func otherCase(_ byte: UInt8) -> UInt8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - 0x20
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte + 0x20
      default: return byte
      }
    }
  }
}
