import CVipsGlue
import Foundation
import StampCore
import StampTestShim
import StampTestSupport
import Testing

@testable import StampRender

@Suite("JPEG transplant: stamp-area quality against an independent float reference")
struct JPEGTransplantQualityTests {
  /// A smooth stamp given as a function of continuous stamp coordinates (u, v) in [0, 64)^2: colour gradients and a
  /// disc of alpha whose edge ramps over about 21 pixels. Colour is unpremultiplied, alpha in [0, 1].
  static func stamp(_ u: Double, _ v: Double) -> (r: Double, g: Double, b: Double, a: Double) {
    let d = hypot(u - 32, v - 32)
    return (40 + 3 * u, 200 - 2 * v, 120 + 60 * sin(u / 5), min(max((30 - d) * 12 / 255, 0), 1))
  }

  static let placement = PlacedStamp(
    id: "s", center: StampPoint(96.3, 81.7), size: StampSize(64, 64), scale: 1.25, rotation: 30)

  /// The expected composite in doubles: each pixel centre carried back into the stamp by the inverse similarity,
  /// the stamp evaluated there exactly, blended over the decoded base. Returns the reference and the stamp's area.
  static func reference(base: Pixels) -> (samples: [Double], area: [Int]) {
    var samples = base.samples.map(Double.init)
    var area: [Int] = []
    let p = placement
    let radians = p.rotation * .pi / 180
    for y in 0..<base.height {
      for x in 0..<base.width {
        let (dx, dy) = (Double(x) + 0.5 - p.center.x, Double(y) + 0.5 - p.center.y)
        let u = (cos(radians) * dx + sin(radians) * dy) / p.scale + 32
        let v = (-sin(radians) * dx + cos(radians) * dy) / p.scale + 32
        guard (0..<64).contains(u), (0..<64).contains(v) else { continue }
        let s = stamp(u, v)
        guard s.a > 0 else { continue }
        let i = (y * base.width + x) * 3
        for (k, value) in [s.r, s.g, s.b].enumerated() { samples[i + k] = s.a * value + (1 - s.a) * samples[i + k] }
        area.append(i)
      }
    }
    return (samples, area)
  }

  static func psnr(_ pixels: Pixels, _ reference: [Double], over area: [Int]) -> Double {
    var squared = 0.0
    for i in area {
      for k in 0..<3 {
        let e = Double(pixels.samples[i + k]) - reference[i + k]
        squared += e * e
      }
    }
    return 10 * log10(255 * 255 / (squared / Double(area.count * 3)))
  }

  /// The transplant's stamp area is no worse than the libvips path's (quality 90 as the base, same sampling) by
  /// more than 0.5 dB.
  @Test(arguments: [Subsampling.none, .half])
  func stampAreaIsAsGoodAsTheLibvipsPath(_ subsampling: Subsampling) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.jpeg("base.jpg", width: 192, height: 160, subsampling: subsampling) {
      Fixtures.texture($0, $1)
    }
    let stampFile = try fixtures.picture("stamp.png", width: 64, height: 64, bands: 4) { x, y in
      let s = Self.stamp(Double(x) + 0.5, Double(y) + 0.5)
      return [s.r, s.g, s.b, s.a * 255].map { UInt8(clamping: Int(($0).rounded())) }
    }
    let plan = RenderPlan(base: base, stamps: [.init(image: stampFile, placement: Self.placement)])
    let transplanted = fixtures.path("t.jpg")
    // At 4:2:0 the stamp's region (with its margin) covers over two thirds of the photo: the whole-photo edit.
    let path = try JPEGTransplant.transplant(plan, to: transplanted, with: Renderer())
    #expect(path == (subsampling == .half ? .transplant : .spliced))
    // The libvips path writes 4:4:4 at quality 90 whatever the base had; the transplant keeps the base's sampling.
    // Compare like with like: the libvips path's picture encoded with the base's sampling.
    let viaLibvips = fixtures.path("v.jpg")
    // The composition holds the base's row reader and, through it, the job control whose stop flag the C reader
    // reads while the image is saved: kept alive until the save is done. Dropped after taking `.image`, the flag's
    // memory was freed under the reader, which then read it as "stop" now and then and failed the save.
    let composition = try Renderer().compose(plan)
    withExtendedLifetime(composition) {
      #expect(scv_save_jpeg_options(composition.image.pointer, viaLibvips, 90, subsampling.rawValue, 0, 0, 0) == 0)
    }
    let (reference, area) = Self.reference(base: try Pixels(base))
    #expect(area.count > 3000)
    let t = Self.psnr(try Pixels(transplanted), reference, over: area)
    let v = Self.psnr(try Pixels(viaLibvips), reference, over: area)
    #expect(t >= v - 0.5, "stamp-area PSNR: transplant \(t) dB, libvips path \(v) dB")
    #expect(t > 30, "stamp-area PSNR \(t) dB")
  }
}
