import CJPEGDirect
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
    try #require(try writeFirstFlipLibjpegWarnsAbout(bytes, in: (end - (end - scan) / 3)..<(end - 2), to: damaged))
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

  /// A JFIF segment of revision 2 between the scan and EOI: the splice's scan reads the data clean and skips the
  /// segment, libjpeg warns of the revision when it reads up to EOI. The photo is left to libjpeg's read, which fails
  /// the job at the default `--fail-on error` in its words, as the pixel path does.
  @Test func aSegmentAfterTheScanIsLeftToLibjpeg() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let good = try fixtures.jpeg("good.jpg", width: 160, height: 120, subsampling: .half) { Fixtures.texture($0, $1) }
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
    // APP0, length 16, "JFIF\0", version 2.01, no density, no thumbnail, just before EOI.
    let jfif: [UInt8] = [0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46, 0, 2, 1, 0, 0, 1, 0, 1, 0, 0]
    bytes.insert(contentsOf: jfif, at: bytes.count - 2)
    let base = fixtures.path("jfif2.jpg")
    try Data(bytes).write(to: URL(fileURLWithPath: base))
    do {
      let path = try Renderer().render(fixtures.redStamps(on: base), to: fixtures.path("out.jpg"))
      Issue.record("a photo libjpeg warns about rendered by the \(path) path")
    } catch RenderError.input(let path, let problem) {
      #expect(path == base)
      #expect(problem == "corrupt JPEG data (Warning: unknown JFIF revision number 2.01)")
    }
    #expect(try fixtures.files() == ["good.jpg", "jfif2.jpg", "red.png"])
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

extension JPEGSpliceRouteTests {
  /// Huffman tables fitted to the photo code only the symbols its data has. A smooth photo's have no code for the
  /// sharp edges of a stamp: it takes the whole-photo edit, whose tables are fitted anew, to the photo with the
  /// stamp. That output, stamped again at the same place, needs only codes its tables have: it is spliced, keeping
  /// them. Either way every block away from the stamp keeps the photo's coefficients.
  @Test func fittedTablesAreSplicedWhenTheyHoldTheStampsCodes() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.jpeg("base.jpg", width: 160, height: 120, subsampling: .half, optimizedTables: true) {
      Fixtures.texture($0, $1)
    }
    let once = fixtures.path("once.jpg")
    let twice = fixtures.path("twice.jpg")
    #expect(try Renderer().render(fixtures.redStamps(on: base), to: once) == .transplant)
    #expect(try Renderer().render(fixtures.redStamps(on: once), to: twice) == .spliced)
    // The stamp covers [22, 38) x [22, 38) and bicubic's reach: at 4:2:0, luma blocks 2-4 across and down.
    for (before, after) in [(base, once), (once, twice)] {
      let diff = try differingBlocks(before, after, component: 0)
      #expect(diff.blocks.allSatisfy { (2...4).contains($0.x) && (2...4).contains($0.y) }, "\(diff.blocks)")
    }
    #expect(!(try differingBlocks(base, once, component: 0)).blocks.isEmpty)
    #expect(try Pixels(twice).width == 160)
  }
}

extension JPEGSpliceRouteTests {
  /// With the standard Huffman tables, the whole-photo edit writes the photo's own tables again, so the splice must
  /// write the very same file, byte for byte: its rows cut out, encoded with restart markers and put back, its seams
  /// and copied MCUs leave no trace. Stamps over the corners and edges of photos with partial MCUs, with an ICC
  /// profile and an orientation. Read through the smallest window instead of held whole, the same file again.
  @Test(arguments: [Subsampling.none, .half], [1, 6])
  func theSpliceWritesTheWholeEditsFile(_ subsampling: Subsampling, orientation: Int) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.jpeg(
      "base.jpg", width: 203, height: 157, subsampling: subsampling, orientation: orientation, icc: true
    ) { Fixtures.texture($0, $1) }
    let placements = [(5, 5, 0.0), (198, 80, 30.0), (100, 152, -20.0), (60, 70, 45.0)].enumerated().map { k, p in
      PlacedStamp(
        id: "s\(k)", center: StampPoint(Double(p.0), Double(p.1)), size: StampSize(16, 16), scale: 1, rotation: p.2)
    }
    let plan = try fixtures.redStamps(on: base, at: placements)
    let spliced = fixtures.path("spliced.jpg")
    let whole = fixtures.path("whole.jpg")
    #expect(try JPEGTransplantTests.renderer(splicing: true).0.render(plan, to: spliced) == .spliced)
    #expect(try JPEGTransplantTests.renderer(splicing: false).0.render(plan, to: whole) == .transplant)
    #expect(FileManager.default.contentsEqual(atPath: spliced, andPath: whole))
    #expect(try differingBlocks(base, whole, component: 0).blocks.count > 4)
    var windowed = JPEGTransplantTests.renderer(splicing: true).0
    windowed.spliceWindow = Int(SJT_WINDOW_MINIMUM)
    let read = fixtures.path("read.jpg")
    #expect(try windowed.render(plan, to: read) == .spliced)
    #expect(FileManager.default.contentsEqual(atPath: read, andPath: whole))
  }
}

extension JPEGSpliceRouteTests {
  /// A splice encodes its rectangles with the photo's own Huffman tables in the codec's region encoder; the regions
  /// of the next photo the codec takes, drawn through small JPEGs, must be encoded with the standard tables again (a
  /// fresh codec's), not with the tables fitted to the photo before, which lack their codes.
  @Test func theNextPhotosRegionsDoNotInheritAFittedTable() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    var renderer = Renderer()
    renderer.codesRegionsDirectly = false
    // A photo with tables fitted to it that is spliced (see fittedTablesAreSplicedWhenTheyHoldTheStampsCodes).
    let fitted = try fixtures.jpeg("fitted.jpg", width: 160, height: 120, subsampling: .half, optimizedTables: true) {
      Fixtures.texture($0, $1)
    }
    let once = fixtures.path("once.jpg")
    #expect(try renderer.render(fixtures.redStamps(on: fitted), to: once) == .transplant)
    #expect(try renderer.render(fixtures.redStamps(on: once), to: fixtures.path("twice.jpg")) == .spliced)
    // Then a photo of noise, whose blocks need codes a smooth photo's fitted tables lack, with a turned stamp.
    let noisy = try fixtures.jpeg("noisy.jpg", width: 160, height: 120, subsampling: .half) { x, y in
      let n = (x &* 7919 &+ y &* 104_729 &+ (x ^ y) &* 31) & 0xFFFF
      return [UInt8(n & 0xFF), UInt8(n >> 8), UInt8((n >> 4) & 0xFF)]
    }
    let turned = [PlacedStamp(id: "t", center: StampPoint(80, 60), size: StampSize(16, 16), scale: 2, rotation: 30)]
    let plan = try fixtures.redStamps(on: noisy, at: turned)
    let after = fixtures.path("after.jpg")
    let fresh = fixtures.path("fresh.jpg")
    #expect(try renderer.render(plan, to: after) == .spliced)
    var alone = Renderer()
    alone.codesRegionsDirectly = false
    #expect(try alone.render(plan, to: fresh) == .spliced)
    try readStrictly(after)
    #expect(FileManager.default.contentsEqual(atPath: after, andPath: fresh))
  }
}

extension JPEGSpliceRouteTests {
  /// A Huffman table in a slot no component uses, with more codes of one length than it has (40 of length 1):
  /// libjpeg reads the photo (it builds only the tables it uses), the splice's scan refuses the table before writing
  /// any of it into its look-up tables (it wrote 40 KB past them once: `scripts/fuzz-jpeg` replays the file under
  /// AddressSanitizer), and the photo takes the whole-photo edit.
  @Test func anOverFullTableInAnUnusedSlotIsRefused() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let good = try fixtures.jpeg("good.jpg", width: 64, height: 48, subsampling: .half) { Fixtures.texture($0, $1) }
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
    let sos = try #require(bytes.indices.dropLast().first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
    // DHT, length 59: AC table 3, forty codes of length 1, symbols 0x01-0x0A, 0x11-0x1A, 0x21-0x2A, 0x31-0x3A.
    let symbols = [0x00, 0x10, 0x20, 0x30].flatMap { high in (1...10).map { UInt8(high + $0) } }
    let dht: [UInt8] = [0xFF, 0xC4, 0x00, 0x3B, 0x13, 40] + [UInt8](repeating: 0, count: 15) + symbols
    bytes.insert(contentsOf: dht, at: sos)
    let base = fixtures.path("overfull.jpg")
    try Data(bytes).write(to: URL(fileURLWithPath: base))
    var result = sjs_result()
    #expect(sjs_scan(bytes, bytes.count, 1, nil, 0, &result) == Int32(SJS_NOT_HANDLED))
    try readStrictly(base)
    #expect(try Renderer().render(fixtures.redStamps(on: base), to: fixtures.path("out.jpg")) == .transplant)
  }
}
