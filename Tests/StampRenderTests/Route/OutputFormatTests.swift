import CVipsGlue
import Foundation
import StampCore
import StampFiles
import StampTestShim
import StampTestSupport
import Testing

@testable import StampRender

@Suite("Output formats: AVIF, HEIC and JPEG XL beside the others")
struct OutputFormatTests {
  /// A format written through a codec library that libvips may lack, and how its file starts.
  struct Case: CustomStringConvertible, Sendable {
    var ext: String
    var format: OutputFormat
    /// The PSNR (dB) against the PNG render of the same job the output must exceed at quality 90. Measured on this
    /// test's picture with Debian 12's libvips 8.14.1, libheif 1.15.1 (libaom 3.6, x265 3.5) and libjxl 0.7: AVIF
    /// 49.2 dB, HEIC 51.5, JPEG XL 38.1 (at quality 30: 31.5, 32.4 and 29.6); the bounds leave about 3 dB.
    var minimumPSNR: Double
    /// Whether the file is an ISO-BMFF file whose `ftyp` box names this brand (JPEG XL's bare codestream is not).
    var brand: String?

    var description: String { ext }
  }

  static let cases = [
    Case(ext: "avif", format: .avif, minimumPSNR: 46, brand: "avif"),
    Case(ext: "heic", format: .heic, minimumPSNR: 48, brand: "heic"),
    Case(ext: "jxl", format: .jxl, minimumPSNR: 35, brand: nil),
  ]

  @Test func extensionsNameTheFormats() {
    #expect(OutputFormat(path: "a/b.avif") == .avif)
    #expect(OutputFormat(path: "b.AVIF") == .avif)
    #expect(OutputFormat(path: "b.heic") == .heic)
    #expect(OutputFormat(path: "b.heif") == .heic)
    #expect(OutputFormat(path: "b.jxl") == .jxl)
    #expect(OutputFormat(path: "b.avifs") == nil)
    // libheif's reader refuses more than 16384 a side, so nothing larger is written.
    #expect(OutputFormat.avif.problem(width: 16_384, height: 16_384) == nil)
    #expect(OutputFormat.heic.problem(width: 16_385, height: 10)?.contains("HEIC holds at most 16384") == true)
  }

  /// Debian 12's libvips writes all three (the machines the tests run on are Debian 12 with libvips-dev, whose
  /// libheif1 carries libaom and x265): a probe that said otherwise would refuse every such job at validate.
  @Test(arguments: cases)
  func thisMachineHasTheEncoder(_ test: Case) {
    #expect(test.format.missingEncoder == nil)
    #expect(OutputFormat.jpeg.missingEncoder == nil)
  }

  /// A stamped gradient written in the format decodes (with libvips, independently of the writer) to the size of
  /// the PNG render of the same job, within the stated PSNR of it; and the file is what its extension says.
  @Test(arguments: cases)
  func outputDecodesCloseToThePNGRender(_ test: Case) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let plan = try Self.stampedGradient(in: fixtures)
    try Renderer().render(plan, to: fixtures.path("out.png"))
    let output = fixtures.path("out.\(test.ext)")
    try Renderer().render(plan, to: output, quality: 90)
    let png = try Pixels(fixtures.path("out.png"))
    let decoded = try Self.decode(output, in: fixtures)
    #expect(decoded.width == png.width && decoded.height == png.height && decoded.bands == 3)
    let psnr = Self.psnr(png, decoded)
    #expect(psnr > test.minimumPSNR, "\(test.ext): \(psnr) dB against the PNG render")
    let head = try Data(contentsOf: URL(fileURLWithPath: output)).prefix(12)
    if let brand = test.brand {
      #expect(String(decoding: head.dropFirst(4), as: UTF8.self) == "ftyp" + brand)
    } else {
      // A JPEG XL codestream starts FF 0A; its container starts with a 12-byte signature box "JXL ".
      #expect(
        Array(head.prefix(2)) == [0xFF, 0x0A] || String(decoding: head.dropFirst(4).prefix(4), as: UTF8.self) == "JXL ")
    }
  }

  /// A higher quality gives a larger file: the job's `quality` reaches the encoder.
  @Test(arguments: cases)
  func qualityIsHonoured(_ test: Case) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let plan = try Self.stampedGradient(in: fixtures)
    var sizes: [Int] = []
    for quality in [30, 90] {
      let output = fixtures.path("q\(quality).\(test.ext)")
      try Renderer().render(plan, to: output, quality: quality)
      sizes.append(try #require(try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int))
    }
    #expect(sizes[0] < sizes[1], "\(test.ext): quality 30 gave \(sizes[0]) bytes, 90 gave \(sizes[1])")
    // And the lower quality is further from the picture.
    let png = try Self.renderPNG(plan, in: fixtures)
    let low = Self.psnr(png, try Self.decode(fixtures.path("q30.\(test.ext)"), in: fixtures))
    let high = Self.psnr(png, try Self.decode(fixtures.path("q90.\(test.ext)"), in: fixtures))
    #expect(low < high, "\(test.ext): \(low) dB at 30, \(high) at 90")
  }

  /// The photo's EXIF (GPS, the camera's make) is not written; its ICC profile is (AVIF and HEIC carry it in their
  /// `colr` box, JPEG XL in its codestream). As for JPEG, libvips' writer adds its own minimal EXIF block
  /// (resolution, dimensions), nothing of the photo's.
  @Test(arguments: cases)
  func metadataIsStrippedAndTheProfileKept(_ test: Case) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.photoWithPrivateMetadata("base.jpg")
    let output = fixtures.path("out.\(test.ext)")
    try Renderer().render(RenderPlan(base: base, stamps: []), to: output)
    // A JPEG XL output is read through its PNG copy (see `decode`), which keeps what it carried but its EXIF.
    let written = try Image.open(
      test.format == .jxl ? try Self.pngCopy(of: output, in: fixtures) : output, sequential: false)
    #expect(scv_has_field(written.pointer, "icc-profile-data") != 0)
    if test.format != .jxl {
      #expect(scv_has_field(written.pointer, "exif-ifd0-Make") == 0)
      #expect(scv_has_field(written.pointer, "exif-ifd3-GPSLatitude") == 0)
    }
  }

  /// A 96 x 64 photo of smooth gradients with a red square stamp on it: edges and flat parts, as photos have.
  static func stampedGradient(in fixtures: Fixtures) throws -> RenderPlan {
    let base = try fixtures.picture("base.png", width: 96, height: 64, bands: 3) { x, y in
      [UInt8(x * 2 + 30), UInt8(y * 3 + 20), UInt8((x + y) + 40)]
    }
    let stamp = try fixtures.solid("stamp.png", width: 16, height: 16, pixel: [230, 20, 20, 255])
    return RenderPlan(
      base: base, stamp: stamp,
      placement: PlacedStamp(id: "s", center: StampPoint(48, 32), size: StampSize(24, 24), scale: 1, rotation: 20))
  }

  static func renderPNG(_ plan: RenderPlan, in fixtures: Fixtures) throws -> Pixels {
    let path = fixtures.path("reference.png")
    try Renderer().render(plan, to: path)
    return try Pixels(path)
  }

  /// Decodes an output with libvips. JPEG XL is decoded in a child process, by `stampcam render` to PNG with
  /// --allow-untrusted-loaders: libvips marks its JPEG XL loader untrusted, and letting it through in this process
  /// would race the tests that check untrusted loaders are refused (the block is the process's).
  static func decode(_ path: String, in fixtures: Fixtures) throws -> Pixels {
    guard OutputFormat(path: path) == .jxl else { return try Pixels(path) }
    return try Pixels(try pngCopy(of: path, in: fixtures))
  }

  /// `path` decoded by a `stampcam render` of one job with no stamp into a PNG beside it; the PNG's path.
  static func pngCopy(of path: String, in fixtures: Fixtures) throws -> String {
    let name = URL(fileURLWithPath: path).lastPathComponent + ".png"
    let manifest = fixtures.path(name + ".json")
    let job = #"{"version": 1, "jobs": [{"id": "d", "base": "\#(path)", "output": "\#(name)"}]}"#
    try Data(job.utf8).write(to: URL(fileURLWithPath: manifest))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent().appendingPathComponent("stampcam")
    process.arguments = ["render", manifest, "--out", fixtures.path(""), "--quiet", "--allow-untrusted-loaders"]
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "stampcam could not decode \(path)")
    return fixtures.path(name)
  }

  /// Peak signal-to-noise ratio of `b` against `a` over their first three bands, in dB (infinite when equal).
  static func psnr(_ a: Pixels, _ b: Pixels) -> Double {
    var sum = 0.0
    var count = 0
    for y in 0..<min(a.height, b.height) {
      for x in 0..<min(a.width, b.width) {
        let (p, q) = (a[x, y], b[x, y])
        for band in 0..<3 {
          let d = Double(p[band]) - Double(q[band])
          sum += d * d
          count += 1
        }
      }
    }
    guard count > 0, sum > 0 else { return .infinity }
    return 10 * log10(255 * 255 / (sum / Double(count)))
  }
}
