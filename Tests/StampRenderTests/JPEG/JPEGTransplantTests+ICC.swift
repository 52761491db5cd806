import CJPEGDirect
import Foundation
import Testing

@testable import StampRender

/// The lossless path copied any APP2 "ICC_PROFILE" bytes verbatim (garbage text and a 1 MB fake profile reached
/// the output: a way to carry data through the metadata stripping). Now only a well-formed profile is kept, on
/// both paths.
struct JPEGTransplantICCTests {
  /// `profile` as APP2 ICC_PROFILE segments (`numbers` overrides each chunk's sequence number) after the SOI.
  static func embedding(_ profile: [UInt8], in jpeg: [UInt8], numbers: [UInt8]? = nil) -> [UInt8] {
    let chunks = stride(from: 0, to: profile.count, by: 65_519).map {
      Array(profile[$0..<min($0 + 65_519, profile.count)])
    }
    var segments: [UInt8] = []
    for (k, chunk) in chunks.enumerated() {
      let length = 2 + 14 + chunk.count
      segments += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 255)] + Array("ICC_PROFILE".utf8) + [0]
      segments += [numbers?[k] ?? UInt8(k + 1), UInt8(chunks.count)] + chunk
    }
    return Array(jpeg[0..<2]) + segments + Array(jpeg[2...])
  }

  /// A profile-shaped blob: size field, 'acsp' at 36, one tag over the rest, filled with `fill`.
  static func fake(size: Int, signature: String = "acsp", fill: UInt8 = 0x41) -> [UInt8] {
    var bytes = [UInt8](repeating: fill, count: size)
    func put(_ value: Int, at offset: Int) {
      for i in 0..<4 { bytes[offset + i] = UInt8(value >> (24 - 8 * i) & 255) }
    }
    put(size, at: 0)
    bytes.replaceSubrange(36..<40, with: Array(signature.utf8))
    put(1, at: 128)
    put(144, at: 136)
    put(size - 144, at: 140)
    return bytes
  }

  static let cases: [(String, [UInt8], [UInt8]?)] = [
    ("garbage text", Array(String(repeating: "not a profile, could be anything. ", count: 20).utf8), nil),
    ("a 1 MB blob without the acsp signature", fake(size: 1_000_000, signature: "data"), nil),
    ("a profile-shaped blob over 1 MB", fake(size: 1_500_000), nil),
    ("chunks out of sequence", fake(size: 100_000), [2, 1]),
  ]

  @Test(arguments: cases.indices)
  func aMalformedProfileDoesNotReachTheOutput(_ index: Int) throws {
    let (_, profile, numbers) = Self.cases[index]
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let plain = try fixtures.jpeg("plain.jpg", width: 32, height: 32, subsampling: .none) { _, _ in [90, 90, 90] }
    let base = fixtures.path("base.jpg")
    let bytes = Self.embedding(
      profile, in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: plain))), numbers: numbers)
    try Data(bytes).write(to: URL(fileURLWithPath: base))
    for output in ["out.jpg", "out.png"] {
      try Renderer().render(RenderPlan(base: base, stamps: []), to: fixtures.path(output))
      let written = try Data(contentsOf: URL(fileURLWithPath: fixtures.path(output)))
      #expect(written.count < 20_000, "\(output) is \(written.count) bytes")
      #expect(written.range(of: Data("ICC_PROFILE".utf8)) == nil && written.range(of: Data("iCCP".utf8)) == nil)
    }
  }

  @Test func wellFormedProfilesPassAndEveryFlawFails() {
    let good = Self.fake(size: 4096)
    #expect(sjt_icc_well_formed(good, good.count) == 1)
    var wrongSize = good
    wrongSize[3] = 1
    var tagOutside = good
    tagOutside[143] = 255
    for bad in [Array(good.prefix(131)), wrongSize, tagOutside, Self.fake(size: 4096, signature: "acsq")] {
      #expect(sjt_icc_well_formed(bad, bad.count) == 0)
    }
  }
}
