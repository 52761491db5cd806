import Foundation
import StampCore
import StampTestSupport
import Testing

@testable import StampRender

/// The spliced path as a job meets it: which photos take it, and what happens when it cannot be taken.
@Suite("Spliced scans: which photos take the splice, and the whole-photo edit where they cannot")
struct JPEGSpliceRouteTests {
  /// One bit flipped in MCUs far from the stamp, which the splice copies without decoding them for the edit: its
  /// scan finds the damage, and the whole-photo edit reads the photo and fails the job at the default
  /// `--fail-on error` in libjpeg's words, naming the photo and leaving no file; at `none` the photo is re-encoded
  /// from the pixels libvips decodes, as before the splice.
  @Test func aFlippedBitFarFromTheStampFailsAtTheDefaultLevel() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    // 160 x 240 at 4:2:0: 150 MCUs of 16 x 16; the stamp at (30, 30) touches the top-left ones only, and the last
    // third of the entropy-coded data holds MCU rows 10-14.
    let good = try fixtures.jpeg("good.jpg", width: 160, height: 240, subsampling: .half) {
      Fixtures.texture($0, $1)
    }
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
    let scan = try #require(bytes.indices.dropLast().last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
    let end = bytes.count - 2
    let damaged = fixtures.path("flipped.jpg")
    var found = false
    search: for at in (end - (end - scan) / 3)..<(end - 2) where bytes[at - 1] != 0xFF && bytes[at] != 0xFF {
      for bit in 0..<8 where bytes[at] ^ (1 << bit) != 0xFF {
        var copy = bytes
        copy[at] ^= 1 << bit
        try Data(copy).write(to: URL(fileURLWithPath: damaged))
        if (try? readStrictly(damaged)) == nil {
          found = true
          break search
        }
      }
    }
    try #require(found)
    let plan = try fixtures.redStamps(on: damaged)
    do {
      let path = try Renderer().render(plan, to: fixtures.path("out.jpg"))
      Issue.record("a photo with corrupt data rendered by the \(path) path")
    } catch RenderError.input(let path, let problem) {
      #expect(path.hasSuffix("flipped.jpg"))
      #expect(problem.hasPrefix("corrupt JPEG data (Corrupt JPEG data: "), "\(problem)")
    }
    #expect(try fixtures.files() == ["flipped.jpg", "good.jpg", "red.png"])
    var lenient = Renderer()
    lenient.inputs.failOn = .none
    let path = try lenient.render(plan, to: fixtures.path("out.jpg"))
    guard case .libvips(.damaged) = path else {
      Issue.record("a damaged photo at --fail-on none took the \(path) path")
      return
    }
    #expect(try Renderer().render(fixtures.redStamps(on: good), to: fixtures.path("good-out.jpg")) == .spliced)
  }

  /// A Huffman table that codes one symbol twice decodes (libjpeg's decoder and the splice's scan take it) but
  /// cannot encode (libjpeg's encoder refuses it): the photo takes the whole-photo edit, whose tables are fitted
  /// anew, not the libvips path after a failed encode.
  @Test func aTableCodingASymbolTwiceTakesTheWholePhotoEdit() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let good = try fixtures.jpeg("good.jpg", width: 160, height: 120, subsampling: .half) { Fixtures.texture($0, $1) }
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
    // The first DHT segment's first table: its class and slot, 16 counts, then the symbols. One more code of 16
    // bits, for a symbol the table has already (the data never uses it; the code space has room: the standard
    // tables leave the all-ones codes free).
    let dht = try #require(bytes.indices.dropLast().first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC4 })
    let counts = dht + 5
    let symbols = (0..<16).reduce(0) { $0 + Int(bytes[counts + $1]) }
    let repeated = bytes[counts + 16]
    bytes[counts + 15] += 1
    bytes.insert(repeated, at: counts + 16 + symbols)
    let length = Int(bytes[dht + 2]) << 8 | Int(bytes[dht + 3]) + 1
    bytes[dht + 2] = UInt8(length >> 8)
    bytes[dht + 3] = UInt8(length & 0xFF)
    let twice = fixtures.path("twice.jpg")
    try Data(bytes).write(to: URL(fileURLWithPath: twice))
    try readStrictly(twice)

    let output = fixtures.path("out.jpg")
    #expect(try Renderer().render(fixtures.redStamps(on: twice), to: output) == .transplant)
    // The stamp covers [22, 38) x [22, 38): at 4:2:0 the luma blocks 2-4 across and down, no other.
    let diff = try differingBlocks(twice, output, component: 0)
    #expect(!diff.blocks.isEmpty)
    #expect(diff.blocks.allSatisfy { (2...4).contains($0.x) && (2...4).contains($0.y) }, "\(diff.blocks)")
  }

  /// Past two thirds of the photo's MCUs under the stamps, the whole-photo edit is the cheaper one and is taken;
  /// a stamp over a corner stays spliced.
  @Test func aStampOverMostOfThePhotoTakesTheWholePhotoEdit() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    // 128 x 96 at 4:2:0: 8 x 6 MCUs of 16 x 16.
    let base = try fixtures.jpeg("base.jpg", width: 128, height: 96, subsampling: .half) { Fixtures.texture($0, $1) }
    let stamp = try fixtures.solid("big.png", width: 120, height: 90, pixel: [20, 200, 20, 255])
    // Centred, 120 x 90: [4, 124) x [3, 93), every MCU.
    let big = PlacedStamp(id: "b", center: StampPoint(64, 48), size: StampSize(120, 90), scale: 1, rotation: 0)
    #expect(
      try Renderer().render(RenderPlan(base: base, stamp: stamp, placement: big), to: fixtures.path("a.jpg"))
        == .transplant)
    // 40 x 30 at (20, 15): [0, 40) x [0, 30) and bicubic's reach, MCUs 0-2 across and 0-1 down (with the region's
    // one-MCU margin at 4:2:0, 4 x 3 of 48).
    let small = PlacedStamp(id: "s", center: StampPoint(20, 15), size: StampSize(40, 30), scale: 1, rotation: 0)
    #expect(
      try Renderer().render(RenderPlan(base: base, stamp: stamp, placement: small), to: fixtures.path("b.jpg"))
        == .spliced)
  }
}
