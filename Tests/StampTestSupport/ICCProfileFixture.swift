/// A well-formed ICC profile of any size (its header, one tag over the rest of it), carried in a JPEG's APP2 chunks
/// as libjpeg writes them: for tests of what a large profile costs on its way through.
public enum ICCProfileFixture {
  /// A profile of `length` bytes (132 or more, and at most what 255 chunks hold).
  public static func profile(length: Int) -> [UInt8] {
    func be32(_ v: Int) -> [UInt8] {
      [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)]
    }
    var profile = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    profile.replaceSubrange(0..<4, with: be32(length))
    profile.replaceSubrange(36..<40, with: Array("acsp".utf8))
    profile.replaceSubrange(128..<144, with: be32(1) + Array("desc".utf8) + be32(144) + be32(length - 144))
    return profile
  }

  /// The JPEG `jpeg` with `profile` in APP2 chunks of 65,519 bytes right after SOI.
  public static func embedding(_ profile: [UInt8], in jpeg: [UInt8]) -> [UInt8] {
    let size = 65_519
    let chunks = stride(from: 0, to: profile.count, by: size).map { Array(profile[$0..<min($0 + size, profile.count)]) }
    var segments: [UInt8] = []
    for (k, chunk) in chunks.enumerated() {
      let segment = 2 + 12 + 2 + chunk.count
      segments += [0xFF, 0xE2, UInt8(segment >> 8), UInt8(segment & 255)] + Array("ICC_PROFILE".utf8) + [0]
      segments += [UInt8(k + 1), UInt8(chunks.count)] + chunk
    }
    return Array(jpeg[..<2]) + segments + jpeg[2...]
  }

  /// The profile in a JPEG's APP2 ICC_PROFILE chunks, in the order they come (empty when it has none).
  public static func chunks(of jpeg: [UInt8]) -> [UInt8] {
    var profile: [UInt8] = []
    var at = 2
    while at + 4 <= jpeg.count, jpeg[at] == 0xFF, jpeg[at + 1] != 0xDA {
      let length = Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3])
      let body = (at + 4)..<min(at + 2 + length, jpeg.count)
      if jpeg[at + 1] == 0xE2, body.count > 14, Array(jpeg[body.prefix(12)]) == Array("ICC_PROFILE".utf8) + [0] {
        profile += jpeg[(body.lowerBound + 14)..<body.upperBound]
      }
      at += 2 + length
    }
    return profile
  }
}
