import Foundation
import StampCore
import StampFiles
import Testing

@testable import StampRender

/// `JPEGStream`: the libvips path decodes an upright JPEG photo with stampcam's own libjpeg reader, which reads the
/// data to its end as it decodes, so damage found only past the last row needs no second read of the file.
struct JPEGStreamTests {
  enum Kind: String, CaseIterable, Sendable {
    case baseline420, baseline444, progressive, grey
  }

  /// A photo of an awkward size (neither side a whole number of MCUs, several of libvips' 8-row strips and a
  /// partial last one) in each coding.
  static func photo(_ kind: Kind, in fixtures: Fixtures) throws -> String {
    let (width, height) = (61, 203)
    switch kind {
    case .baseline420:
      return try fixtures.jpeg("a.jpg", width: width, height: height, subsampling: .half) { Fixtures.texture($0, $1) }
    case .baseline444:
      return try fixtures.jpeg("b.jpg", width: width, height: height, subsampling: .none) { Fixtures.texture($0, $1) }
    case .progressive:
      return try fixtures.jpeg("c.jpg", width: width, height: height, subsampling: .half, progressive: true) {
        Fixtures.texture($0, $1)
      }
    case .grey:
      return try fixtures.grayJPEG("d.jpg", width: width, height: height) { UInt8(($0 * 7 + $1 * 3) % 256) }
    }
  }

  /// The reader's picture is libvips' own loader's, sample for sample (the loader is used when damage does not fail
  /// the job, `--fail-on truncated`), with a stamp drawn over it in both.
  @Test(arguments: Kind.allCases)
  func theReaderDecodesAsLibvipsLoaderDoes(_ kind: Kind) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try Self.photo(kind, in: fixtures)
    let stamp = try fixtures.picture("stamp.png", width: 20, height: 16, bands: 4) { x, y in
      [UInt8(x * 12), 90, UInt8(y * 15), UInt8(40 + x * 9)]
    }
    let placement = PlacedStamp(
      id: "s", center: StampPoint(30.5, 100.25), size: StampSize(20, 16), scale: 1.3, rotation: 25)
    let plan = RenderPlan(base: base, stamp: stamp, placement: placement)
    let reading = try Renderer().compose(plan)
    #expect(reading.reader != nil)
    var lenient = Renderer()
    lenient.inputs.failOn = .truncated
    let loading = try lenient.compose(plan)
    #expect(loading.reader == nil)
    let reader = try #require(reading.reader)
    let (got, expected) = (try reader.telling { try reading.image.pixels() }, try loading.image.pixels())
    #expect(got.count == 61 * 203 * 3)
    #expect(got == expected)
  }

  /// The libvips image over the reader outlives the reader object and the job's control whose stop flag the C
  /// reader reads: the reader holds a reference of its own to the flag, so the image still decodes, libvips'
  /// loader's very pixels. (When the control freed the flag, the reader read freed memory, which looked raised:
  /// "stopped".)
  @Test func theImageOutlivesTheControlWhoseFlagItReads() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try Self.photo(.baseline420, in: fixtures)
    let file = try InputFile.open(base)
    let header = try Image.open(file, sequential: true, policy: InputPolicy())
    var image: Image?
    do {
      let control = JobControl()
      let stream = try #require(JPEGStream.open(file, like: header, maxBytes: 1 << 30, control: control))
      image = try stream.image(like: header)
    }
    let decoded = try #require(image).pixels()
    #expect(decoded.count == 61 * 203 * 3)
    #expect(decoded == (try Image.open(base, sequential: false).pixels()))
  }

  /// A progressive photo decoded into a codec's kept coefficient arrays (as `Renderer.stage` has it) is libvips'
  /// loader's picture, and so is each one decoded into the same arrays after it: a smaller one, laid out otherwise,
  /// over the larger one's coefficients still in them, then the larger again. A one-scan photo borrows nothing.
  @Test func progressivePhotosDecodedIntoKeptArraysAreTheLoadersPictures() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let codec = try #require(JPEGCodec())
    let large = try fixtures.jpeg("large.jpg", width: 203, height: 150, subsampling: .half, progressive: true) {
      Fixtures.texture($0, $1)
    }
    let small = try fixtures.jpeg("small.jpg", width: 61, height: 77, subsampling: .none, progressive: true) {
      Fixtures.texture($1, $0)
    }
    let stamp = try fixtures.solid("red.png", width: 12, height: 12, pixel: [230, 20, 20, 160])
    var lenient = Renderer()
    lenient.inputs.failOn = .truncated
    for base in [large, small, large] {
      let placement = PlacedStamp(
        id: "s", center: StampPoint(30, 40), size: StampSize(12, 12), scale: 1, rotation: 30)
      let plan = RenderPlan(base: base, stamp: stamp, placement: placement)
      let reading = try Renderer().compose(plan)
      let reader = try #require(reading.reader)
      #expect(reader.isMultiscan)
      #expect(reader.decode(into: codec))
      let got = try reader.telling { try reading.image.pixels() }
      reader.end()
      #expect(got == (try lenient.compose(plan).image.pixels()), "\(base)")
    }
    // Through `ArraysLender`, as `Renderer.stage` decodes; not a turned photo, decoded whole while composing, whose
    // arrays go before the writing.
    let turned = try fixtures.jpeg(
      "turned.jpg", width: 90, height: 40, subsampling: .half, progressive: true, orientation: 6
    ) { Fixtures.texture($0, $1) }
    for base in [small, turned] {
      let plan = RenderPlan(base: base, stamps: [])
      let lender = ArraysLender(pool: JPEGCodecPool())
      let composed = try Renderer().compose(plan, lender: lender)
      #expect(lender.lends == (base == small), "\(base)")
      let got = try #require(composed.reader).telling { try composed.image.pixels() }
      lender.finish()
      #expect(!lender.lends)
      #expect(got == (try lenient.compose(plan).image.pixels()), "\(base)")
    }
    let oneScan = try Self.photo(.baseline420, in: fixtures)
    let plan = RenderPlan(
      base: oneScan, stamp: stamp,
      placement: PlacedStamp(id: "s", center: StampPoint(9, 9), size: StampSize(12, 12), scale: 1, rotation: 0))
    let reader = try #require(try Renderer().compose(plan).reader)
    #expect(!reader.isMultiscan)
    #expect(!reader.decode(into: codec))
  }

  /// Damage libjpeg notices only past the last row (the decoder lost step and stopped short of the data) and a file
  /// cut short fail the libvips path's decoding itself, told as the JPEG path tells them.
  @Test(arguments: [("flipped", false), ("cut", true)])
  func damageFailsTheDecodingAndIsToldAsDamage(_ damage: String, _ truncated: Bool) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try InputPolicyTests.damaged(damage, in: fixtures)
    let composed = try Renderer().compose(RenderPlan(base: base, stamps: []))
    #expect(composed.reader != nil)
    do {
      _ = try #require(composed.reader).telling { try composed.image.pixels() }
      Issue.record("a \(damage) photo decoded")
    } catch RenderError.damaged(let path, let message, let cut) {
      #expect(path == base)
      #expect(cut == truncated)
      if !truncated { #expect(message.contains("extraneous bytes"), "\(message)") }
    }
    let error = #expect(throws: RenderError.self) {
      try Renderer().render(RenderPlan(base: base, stamps: []), to: fixtures.path("out.png"))
    }
    let told = truncated ? "truncated JPEG" : "corrupt JPEG data ("
    #expect(error?.description.hasPrefix("\(base): \(told)") == true, "\(String(describing: error))")
  }

  /// What stopped the reader stays: an evaluation that succeeds after it (libvips 8.14 can hand a failed strip on
  /// as black, without the error, to a thread waiting for it) still fails, and what it made is let go.
  @Test func damageFoundOnceFailsEveryLaterEvaluation() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try InputPolicyTests.damaged("flipped", in: fixtures)
    let composed = try Renderer().compose(RenderPlan(base: base, stamps: []))
    let reader = try #require(composed.reader)
    #expect(reader.failure == nil)
    #expect(throws: RenderError.self) { try reader.telling { try composed.image.pixels() } }
    var discarded: [Int] = []
    do {
      _ = try reader.telling({ 42 }, discard: { discarded.append($0) })
      Issue.record("an evaluation after the damage succeeded")
    } catch RenderError.damaged(let path, _, let truncated) {
      #expect(path == base)
      #expect(!truncated)
    }
    #expect(discarded == [42])
  }

  /// A photo read in another order (turned by its EXIF orientation) is decoded whole by the reader first, then
  /// turned: the same pixels as libvips' loader gives.
  @Test func aTurnedPhotoIsDecodedWholeThenTurned() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.jpeg("t.jpg", width: 40, height: 24, subsampling: .half, orientation: 6) {
      Fixtures.texture($0, $1)
    }
    let plan = RenderPlan(base: base, stamps: [])
    let composed = try Renderer().compose(plan)
    #expect(composed.reader != nil)
    #expect((composed.image.width, composed.image.height) == (24, 40))
    var lenient = Renderer()
    lenient.inputs.failOn = .truncated
    #expect(try composed.image.pixels() == lenient.compose(plan).image.pixels())
  }

  /// Read out of order (a stamp on a photo decoded whole, as the view output does), the damage stops the composing
  /// itself, told as damage.
  @Test func damageInAPhotoDecodedWholeIsToldAsDamage() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try InputPolicyTests.damaged("flipped", in: fixtures)
    let stamp = try fixtures.picture("stamp.png", width: 8, height: 8, bands: 4) { _, _ in [10, 20, 30, 255] }
    let placement = PlacedStamp(id: "s", center: StampPoint(20, 20), size: StampSize(8, 8), scale: 1, rotation: 0)
    let plan = RenderPlan(base: base, stamp: stamp, placement: placement)
    do {
      _ = try Renderer().compose(plan, streams: false)
      Issue.record("a damaged photo was decoded whole")
    } catch RenderError.damaged(let path, let message, let truncated) {
      #expect(path == base)
      #expect(!truncated)
      #expect(message.contains("extraneous bytes"), "\(message)")
    }
  }
}
