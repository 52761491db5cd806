import Foundation
import StampCore
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
    Case(name: "PNG output", output: .png, expected: .libvips(.outputNotJPEG)),
    Case(name: "WebP output", output: .webp, expected: .libvips(.outputNotJPEG)),
    Case(name: "explicit quality, even the default's", quality: 90, expected: .libvips(.explicitQuality)),
    Case(name: "base libjpeg cannot read", facts: nil, expected: .libvips(.baseNotJPEG)),
    Case(name: "progressive", facts: with { $0.progressive = true }, expected: .libvips(.progressive)),
    Case(name: "arithmetic-coded", facts: with { $0.arithmetic = true }, expected: .libvips(.arithmetic)),
    Case(name: "12-bit", facts: with { $0.precision = 12 }, expected: .libvips(.precision)),
    Case(
      name: "CMYK",
      facts: with {
        $0.colourSpace = .cmyk
        $0.sampling.append(.init(1, 1))
      }, expected: .libvips(.colourSpace)),
    Case(name: "Adobe RGB-coded", facts: with { $0.colourSpace = .rgb }, expected: .libvips(.colourSpace)),
    Case(
      name: "grayscale",
      facts: with {
        $0.colourSpace = .grayscale
        $0.sampling = [.init(1, 1)]
      }, expected: .libvips(.colourSpace)),
    Case(name: "4:1:1", facts: with { $0.sampling[0] = .init(4, 1) }, expected: .libvips(.sampling)),
    Case(
      name: "chroma not 1x1", facts: with { $0.sampling = [.init(2, 2), .init(2, 1), .init(1, 1)] },
      expected: .libvips(.sampling)),
    Case(name: "over the pixel limit", facts: with { $0.width = 20_000 }, expected: .libvips(.tooLarge)),
    Case(
      name: "a zero in a quantization table", facts: with { $0.quantizationUsable = false },
      expected: .libvips(.quantization)),
  ]

  @Test(arguments: cases)
  func decision(_ c: Case) {
    #expect(RenderPath.choose(output: c.output, quality: c.quality, base: c.facts, maxPixels: 50_000_000) == c.expected)
  }

  /// Real files: the header libjpeg reads leads to the same decisions, and a libvips-path job writes nothing.
  @Test func realFilesFallBackForProgressiveAndNonJPEGBases() throws {
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
      try JPEGTransplant.transplant(RenderPlan(base: progressive, stamps: []), to: out, with: renderer)
        == .libvips(.progressive))
    #expect(
      try JPEGTransplant.transplant(RenderPlan(base: png, stamps: []), to: out, with: renderer)
        == .libvips(.baseNotJPEG))
    #expect(!FileManager.default.fileExists(atPath: out))
    #expect(
      try !JPEGTransplant.render(
        RenderPlan(base: plain, stamps: []), to: out, format: .jpeg, quality: 80, with: renderer))
    #expect(
      try !JPEGTransplant.render(
        RenderPlan(base: plain, stamps: []), to: fixtures.path("o.png"), format: .png, quality: nil, with: renderer))
    #expect(try JPEGTransplant.transplant(RenderPlan(base: plain, stamps: []), to: out, with: renderer) == .transplant)
    // The libvips path still renders the progressive base (and names it when it cannot).
    try renderer.render(RenderPlan(base: progressive, stamps: []), to: fixtures.path("p-out.jpg"))
    #expect(FileManager.default.fileExists(atPath: fixtures.path("p-out.jpg")))
  }

  /// A quantization table with a zero entry (found by scripts/fuzz-jpeg: libjpeg decodes such a file, but its
  /// encoder divides by the table and the process died of SIGFPE) takes the libvips path and renders.
  @Test func zeroInAQuantizationTableTakesTheLibvipsPath() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let good = try fixtures.jpeg("good.jpg", width: 48, height: 32, subsampling: .half) { Fixtures.texture($0, $1) }
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
    // The first DQT segment: FF DB, length (2 bytes), Pq/Tq, then 64 entries; the last entry becomes 0.
    let dqt = try #require(bytes.markers(0xDB).first)
    bytes[dqt + 4 + 64] = 0
    let damaged = fixtures.path("zero.jpg")
    try Data(bytes).write(to: URL(fileURLWithPath: damaged))
    let stamp = try fixtures.solid("red.png", width: 8, height: 8, pixel: [230, 20, 20, 255])
    let plan = RenderPlan(
      base: damaged,
      stamps: [
        .init(
          image: stamp, placement: PlacedStamp(id: "s", center: Point(20, 16), size: Size(8, 8), scale: 1, rotation: 0))
      ])
    let out = fixtures.path("out.jpg")
    #expect(try JPEGTransplant.transplant(plan, to: out, with: Renderer()) == .libvips(.quantization))
    try Renderer().render(plan, to: out)
    #expect(FileManager.default.fileExists(atPath: out))
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
