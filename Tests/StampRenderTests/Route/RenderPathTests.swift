import Foundation
import StampCore
import StampFiles
import Testing

@testable import StampRender

@Suite("Choosing the DCT-domain transplant or the libvips path")
struct RenderPathTests {
  static let baseline = JPEGFacts(
    width: 4032, height: 3024, colourSpace: .yCbCr, precision: 8, progressive: false, arithmetic: false,
    sampling: [.init(1, 1), .init(1, 1), .init(1, 1)])

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var output: OutputFormat = .jpeg
    var quality: Int? = nil
    var facts: JPEGFacts? = RenderPathTests.baseline
    var expected: RenderPath
    var testDescription: String { name }
  }

  static func with(_ change: (inout JPEGFacts) -> Void) -> JPEGFacts {
    var facts = baseline
    change(&facts)
    return facts
  }

  static let cases: [Case] = [
    Case(name: "baseline 4:4:4 JPEG to JPEG, no quality asked", expected: .transplant),
    Case(name: "4:2:0", facts: with { $0.sampling[0] = .init(2, 2) }, expected: .transplant),
    Case(name: "4:2:2", facts: with { $0.sampling[0] = .init(2, 1) }, expected: .transplant),
    Case(name: "4:4:0", facts: with { $0.sampling[0] = .init(1, 2) }, expected: .transplant),
    Case(name: "4:1:1", facts: with { $0.sampling[0] = .init(4, 1) }, expected: .transplant),
    Case(name: "progressive", facts: with { $0.progressive = true }, expected: .transplant),
    Case(name: "arithmetic-coded", facts: with { $0.arithmetic = true }, expected: .transplant),
    Case(name: "Adobe RGB-coded", facts: with { $0.colourSpace = .rgb }, expected: .transplant),
    Case(
      name: "grayscale",
      facts: with {
        $0.colourSpace = .grayscale
        $0.sampling = [.init(1, 1)]
      }, expected: .transplant),
    Case(
      name: "chroma 2x1 and 1x1 under 2x2 luma", facts: with { $0.sampling = [.init(2, 2), .init(2, 1), .init(1, 1)] },
      expected: .transplant),
    Case(name: "PNG output", output: .png, expected: .libvips(.outputNotJPEG)),
    Case(name: "WebP output", output: .webp, expected: .libvips(.outputNotJPEG)),
    Case(name: "explicit quality, even the default's", quality: 90, expected: .libvips(.explicitQuality)),
    Case(name: "base that is no JPEG", facts: nil, expected: .libvips(.baseNotJPEG)),
    Case(name: "12-bit", facts: with { $0.precision = 12 }, expected: .libvips(.precision)),
    Case(
      name: "CMYK",
      facts: with {
        $0.colourSpace = .cmyk
        $0.sampling.append(.init(1, 1))
      }, expected: .libvips(.colourSpace)),
    Case(
      name: "grayscale declared with three components",
      facts: with { $0.colourSpace = .grayscale }, expected: .libvips(.colourSpace)),
    Case(
      name: "3x1 luma over 2x1 chroma (no whole ratio)",
      facts: with { $0.sampling = [.init(3, 1), .init(2, 1), .init(1, 1)] }, expected: .libvips(.sampling)),
    Case(name: "over the pixel limit", facts: with { $0.width = 20_000 }, expected: .libvips(.tooLarge)),
    Case(
      name: "a zero in a quantization table", facts: with { $0.quantizationUsable = false },
      expected: .libvips(.quantization)),
  ]

  @Test(arguments: cases)
  func decision(_ c: Case) {
    #expect(RenderPath.choose(output: c.output, quality: c.quality, base: c.facts, maxPixels: 50_000_000) == c.expected)
  }

  /// The report's names: a fallback only when a JPEG asked for the lossless path and could not have it.
  @Test func reportNamesThePathAndOnlyRealFallbacks() {
    #expect(RenderPath.transplant.name == "lossless" && RenderPath.transplant.fallback == nil)
    #expect(RenderPath.restartIntervals.name == "restart-intervals" && RenderPath.restartIntervals.fallback == nil)
    for reason in [RenderPath.Reason.outputNotJPEG, .explicitQuality, .baseNotJPEG, .tooLarge] {
      #expect(RenderPath.libvips(reason).name == "pixels" && RenderPath.libvips(reason).fallback == nil)
    }
    #expect(RenderPath.libvips(.colourSpace).fallback == "colour-space")
    #expect(RenderPath.libvips(.quantization).fallback == "quantization")
    #expect(
      RenderPath.libvips(.damaged("Premature end of JPEG file")).fallback == "damaged: Premature end of JPEG file")
  }

  /// Real files: a progressive photo takes the lossless path; other bases, outputs and qualities take the libvips
  /// path, and a libvips-path job writes nothing here.
  @Test func realFilesTakeTheLosslessPathUnlessTheJobAsksForPixels() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let progressive = try fixtures.jpeg("p.jpg", width: 48, height: 32, subsampling: .none, progressive: true) {
      Fixtures.texture($0, $1)
    }
    let png = try fixtures.solid("base.png", width: 48, height: 32, pixel: [9, 9, 9])
    let plain = try fixtures.jpeg("b.jpg", width: 48, height: 32, subsampling: .half) { Fixtures.texture($0, $1) }
    let renderer = Renderer()
    let out = fixtures.path("out.jpg")
    #expect(
      try JPEGTransplant.transplant(RenderPlan(base: png, stamps: []), to: out, with: renderer)
        == .libvips(.baseNotJPEG))
    #expect(!FileManager.default.fileExists(atPath: out))
    let empty = RenderPlan(base: plain, stamps: [])
    #expect(
      try JPEGTransplant.stage(empty, to: try OutputTarget(path: out), quality: 80, with: renderer).path
        == .libvips(.explicitQuality))
    #expect(
      try JPEGTransplant.stage(empty, to: try OutputTarget(path: fixtures.path("o.png")), quality: nil, with: renderer)
        .path
        == .libvips(.outputNotJPEG))
    #expect(!FileManager.default.fileExists(atPath: out))
    #expect(try JPEGTransplant.transplant(empty, to: out, with: renderer) == .spliced)
    #expect(
      try renderer.render(RenderPlan(base: progressive, stamps: []), to: fixtures.path("p-out.jpg")) == .transplant)
    #expect(try renderer.render(empty, to: fixtures.path("q.jpg"), quality: 80) == .libvips(.explicitQuality))
  }

  /// A quantization table with a zero entry (found by scripts/fuzz-jpeg: libjpeg decodes such a file, but its
  /// encoder divides by the table and the process died of SIGFPE) takes the libvips path and renders, keeping the
  /// photo's 4:2:0 subsampling and its progressive coding (libvips' default at quality 90 is baseline 4:4:4).
  @Test func zeroInAQuantizationTableFallsBackKeepingSubsamplingAndProgression() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let good = try fixtures.jpeg("good.jpg", width: 48, height: 32, subsampling: .half, progressive: true) {
      Fixtures.texture($0, $1)
    }
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
    // The first DQT segment: FF DB, length (2 bytes), Pq/Tq, then 64 entries; the last entry becomes 0.
    let dqt = try #require(bytes.markers(0xDB).first)
    bytes[dqt + 4 + 64] = 0
    let damaged = fixtures.path("zero.jpg")
    try Data(bytes).write(to: URL(fileURLWithPath: damaged))
    let stamp = try fixtures.solid("red.png", width: 8, height: 8, pixel: [230, 20, 20, 255])
    let plan = RenderPlan(
      base: damaged, stamp: stamp,
      placement: PlacedStamp(id: "s", center: StampPoint(20, 16), size: StampSize(8, 8), scale: 1, rotation: 0))
    let out = fixtures.path("out.jpg")
    #expect(try JPEGTransplant.transplant(plan, to: out, with: Renderer()) == .libvips(.quantization))
    #expect(try Renderer().render(plan, to: out) == .libvips(.quantization))
    let codec = try #require(JPEGCodec())
    let written = try #require(try codec.open(out))
    #expect(written.sampling == [.init(2, 2), .init(1, 1), .init(1, 1)] && written.progressive)
  }

  /// A file that is no image at all still fails with the libvips path's message naming it.
  @Test func unreadableBaseStillFailsNamingTheFile() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let bogus = fixtures.path("bogus.jpg")
    try Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]).write(to: URL(fileURLWithPath: bogus))
    #expect(throws: RenderError.self) {
      try JPEGTransplant.transplant(RenderPlan(base: bogus, stamps: []), to: fixtures.path("x.jpg"), with: Renderer())
    }
    do {
      try Renderer().render(RenderPlan(base: bogus, stamps: []), to: fixtures.path("out.jpg"))
      Issue.record("rendering a bogus JPEG succeeded")
    } catch let error as RenderError {
      #expect(error.description.contains("bogus.jpg"))
    }
    #expect(try fixtures.files() == ["bogus.jpg"])
  }
}
