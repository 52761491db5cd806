import Foundation
import StampCore
import StampFiles
import StampTestShim
import StampTestSupport
import Testing

@testable import StampRender

/// A JPEG layout libjpeg writes: components, colour coding and sampling factors.
struct SamplingCase: CustomTestStringConvertible, Sendable {
  var name: String
  var components = 3
  var rgbCoded = false
  var h = [1, 1, 1]
  var v = [1, 1, 1]
  var testDescription: String { name }

  static let all = [
    SamplingCase(name: "4:4:4"), SamplingCase(name: "4:2:2", h: [2, 1, 1]),
    SamplingCase(name: "4:2:0", h: [2, 1, 1], v: [2, 1, 1]), SamplingCase(name: "4:4:0", v: [2, 1, 1]),
    SamplingCase(name: "4:1:1", h: [4, 1, 1]), SamplingCase(name: "4:1:0", h: [4, 1, 1], v: [2, 1, 1]),
    SamplingCase(name: "grey", components: 1, h: [1], v: [1]), SamplingCase(name: "RGB-coded", rgbCoded: true),
  ]

  var sampling: [BlockMap.Sampling] { zip(h, v).map { BlockMap.Sampling($0, $1) } }

  /// Writes a textured `width` x `height` picture in this layout with libjpeg.
  func write(_ fixtures: Fixtures, _ name: String, width: Int, height: Int) throws -> String {
    let pixels = Fixtures.samples(width: width, height: height, bands: components) { x, y in
      Array(Fixtures.texture(x, y).prefix(components))
    }
    let path = fixtures.path(name)
    var message = [CChar](repeating: 0, count: 256)
    let status = sjt_fixture_write(
      path, pixels, Int32(width), Int32(height), Int32(components), rgbCoded ? 1 : 0, h.map(Int32.init),
      v.map(Int32.init), 90, &message, message.count)
    try #require(status == 0, "\(message.nulTerminatedText)")
    return path
  }
}

/// libjpeg's own decode of a whole file (accurate integer IDCT, its default upsampling), as RGB.
func libjpegDecode(_ path: String) throws -> Pixels {
  var rgb = [UInt8](repeating: 0, count: 1 << 22)
  var (width, height): (Int32, Int32) = (0, 0)
  var message = [CChar](repeating: 0, count: 256)
  let status = sjt_fixture_decode(path, &rgb, rgb.count, &width, &height, &message, message.count)
  try #require(status == 0, "\(message.nulTerminatedText)")
  return Pixels(
    width: Int(width), height: Int(height), bands: 3, samples: Array(rgb.prefix(Int(width * height) * 3)))
}

@Suite("JPEG regions straight between coefficients and pixels, against libjpeg's own decode and encode")
struct JPEGDirectTests {
  /// 150 x 70: no size of a whole iMCU in any layout, so the right and bottom blocks are partly padding.
  static let (width, height) = (150, 70)

  static func opened(_ path: String, directly: Bool = true) throws -> JPEGCodec {
    let codec = try #require(JPEGCodec())
    try #require(codec.codesRegionsDirectly(directly), "libjpeg's transforms failed their check")
    _ = try codec.open(path)
    try codec.readCoefficients()
    return codec
  }

  /// With Debian's libjpeg-dev (which installs jpegint.h) the transforms and the colour conversion are libjpeg's own
  /// modules, its SIMD code where the CPU has it: were their check to fail, regions would still come out right, on
  /// slower code, and only this would tell. (Run with JSIMD_FORCENONE=1, libjpeg picks its C code and they pass too.)
  /// scripts/test-slow also builds without the module interface (as where jpegint.h is missing) and runs these tests
  /// with STAMPCAM_TEST_NO_MODULES=1: then neither is used, and every other test here holds all the same.
  @Test func libjpegsOwnModulesRunTheStraightWay() throws {
    let codec = try #require(JPEGCodec())
    #if os(Linux)
      let expected = ProcessInfo.processInfo.environment["STAMPCAM_TEST_NO_MODULES"] == nil
      #expect(codec.libjpegModules.transforms == expected)
      #expect(codec.libjpegModules.colour == expected)
    #endif
  }

  /// The whole picture, and a region inside it, decode to libjpeg's decode of the whole file within 1 level per
  /// sample (except within 4 pixels of the inner region's edges, which it takes as the picture's).
  @Test(arguments: SamplingCase.all)
  func regionsDecodeAsLibjpegDecodesTheFile(_ layout: SamplingCase) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let path = try layout.write(fixtures, "base.jpg", width: Self.width, height: Self.height)
    let reference = try libjpegDecode(path)
    #expect((reference.width, reference.height) == (Self.width, Self.height))
    let codec = try Self.opened(path)
    let whole = try codec.decode(GridRect(left: 0, top: 0, width: Self.width, height: Self.height))
    #expect(zip(whole, reference.samples).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    let blocks = BlockMap(width: Self.width, height: Self.height, sampling: layout.sampling)
    let (mw, mh) = (blocks.mcuWidth, blocks.mcuHeight)
    let region = GridRect(left: mw, top: mh, width: 3 * mw, height: 3 * mh)
    let inner = try codec.decode(region)
    var compared = 0
    for y in 4..<region.height - 4 {
      for x in 4..<region.width - 4 {
        let got = Array(inner[((y * region.width) + x) * 3..<((y * region.width) + x) * 3 + 3])
        let want = reference[x + region.left, y + region.top]
        #expect(zip(got, want).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "(\(x), \(y))")
        compared += 1
      }
    }
    #expect(compared == (3 * mw - 8) * (3 * mh - 8))
  }

  /// Redrawn pixels encoded straight to coefficients give exactly the coefficients libjpeg's encoder gives them
  /// (the small JPEG of the other way), in every block, the partly padded ones included.
  @Test(arguments: SamplingCase.all)
  func regionsEncodeAsLibjpegEncodes(_ layout: SamplingCase) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let path = try layout.write(fixtures, "base.jpg", width: Self.width, height: Self.height)
    let rect = GridRect(left: 0, top: 0, width: Self.width, height: Self.height)
    let blocks = BlockMap(width: Self.width, height: Self.height, sampling: layout.sampling)
    let masks = layout.sampling.indices.map { c in
      let (wide, high) = blocks.blocks(c, width: Self.width, height: Self.height)
      return [UInt8](repeating: 1, count: wide * high)
    }
    for (name, directly) in [("direct.jpg", true), ("via-jpeg.jpg", false)] {
      let codec = try Self.opened(path, directly: directly)
      var rgb = try codec.decode(rect)
      // A diagonal band of new colour, with clipping, over a third of the picture.
      for y in 0..<Self.height {
        for x in 0..<Self.width where abs(x - 2 * y) < 25 {
          rgb[(y * Self.width + x) * 3] = 255
          rgb[(y * Self.width + x) * 3 + 2] = UInt8((x * 5) % 256)
        }
      }
      try codec.replace(rect, rgb: rgb, masks: masks)
      let out = fixtures.path(name)
      let fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      try #require(fd >= 0)
      defer { close(fd) }
      try codec.write(to: fd, named: name, orientation: 1)
    }
    for c in layout.sampling.indices {
      #expect(
        try differingBlocks(fixtures.path("direct.jpg"), fixtures.path("via-jpeg.jpg"), component: c).blocks
          .isEmpty, "component \(c)")
      #expect(try !differingBlocks(path, fixtures.path("direct.jpg"), component: c).blocks.isEmpty, "component \(c)")
    }
  }

  /// A stamp drawn on the straight path gives the picture the small-JPEG path gives, to at least 50 dB.
  @Test(arguments: [Subsampling.none, .half])
  func aStampDrawnStraightMatchesTheOldPathsPicture(_ subsampling: Subsampling) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.jpeg("base.jpg", width: 400, height: 300, subsampling: subsampling) {
      Fixtures.texture($0, $1)
    }
    let stamp = try fixtures.picture("stamp.png", width: 64, height: 64, bands: 4) { x, y in
      let d = hypot(Double(x) - 32, Double(y) - 32)
      return [UInt8(x * 4), UInt8(255 - y * 3), 90, UInt8(clamping: Int(max(0, min(255, (30 - d) * 40))))]
    }
    let placement = PlacedStamp(
      id: "s", center: StampPoint(151.3, 97.6), size: StampSize(64, 64), scale: 1.7, rotation: 23)
    let plan = RenderPlan(base: base, stamp: stamp, placement: placement)
    var old = Renderer()
    old.codesRegionsDirectly = false
    #expect(try JPEGTransplant.transplant(plan, to: fixtures.path("new.jpg"), with: Renderer()) == .spliced)
    #expect(try JPEGTransplant.transplant(plan, to: fixtures.path("old.jpg"), with: old) == .spliced)
    let (a, b) = (try Pixels(fixtures.path("new.jpg")), try Pixels(fixtures.path("old.jpg")))
    let squared = zip(a.samples, b.samples).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) }
    let psnr = squared == 0 ? Double.infinity : 10 * log10(255 * 255 / (squared / Double(a.samples.count)))
    #expect(psnr >= 50, "PSNR \(psnr) dB")
    // The stamp changed the picture: the comparison is not of two copies of the base.
    #expect(try Pixels(base).samples != a.samples)
  }
}
