import CVips
import CVipsGlue
import Foundation
import StampCore
import StampTestSupport
import Testing

@testable import StampRender

@Suite("Reduction: the Lanczos pre-reduce's rounding is carried into the placement")
struct ReductionTests {
  /// A 97 x 61 white stamp whose alpha is a Gaussian blob (sigma 11 x 7) centred on the stamp's centre (48.5, 30.5),
  /// pixel (48, 30): the blob is symmetric about it, so its alpha-weighted centroid is the centre exactly.
  static func blob(_ fixtures: Fixtures) throws -> String {
    try fixtures.picture("blob.png", width: 97, height: 61, bands: 4) { x, y in
      let (dx, dy) = ((Double(x) + 0.5 - 48.5) / 11, (Double(y) + 0.5 - 30.5) / 7)
      return [255, 255, 255, UInt8((255 * exp(-(dx * dx + dy * dy) / 2)).rounded())]
    }
  }

  /// libvips makes round(97 / 1.4545...) = 67 pixels of 97 at a scale of 0.6875 and scales about the centre:
  /// source x lands at (x - 48.5) / 1.4545... + 33.5. Checked on libvips' own output: the centroid of the reduced
  /// blob is the reduced image's centre (33.5, 21), not the centre divided by the factor (33.34, 20.97).
  @Test func reducedBlobStaysOnTheReducedImagesCentre() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let (hs, vs) = (1 / 0.6875, 1 / 0.6875)
    let stamp = try Image.open(try Self.blob(fixtures), sequential: false)
    let reduced = try stamp.derive("reduce") { scv_reduce($0, &$1, hs, vs) }
    #expect(reduced.width == 67 && reduced.height == 42)
    let reduction = Reduction(hshrink: hs, vshrink: vs, from: (97, 61), to: (reduced.width, reduced.height))
    let centre = reduction.map(StampPoint(48.5, 30.5))
    #expect(centre == StampPoint(33.5, 21))
    // Another point: 10 source pixels right of the centre is 10 / 1.4545... = 6.875 reduced pixels right of it.
    #expect(abs(reduction.map(StampPoint(58.5, 30.5)).x - 40.375) < 1e-12)
    let pixels = Pixels(width: reduced.width, height: reduced.height, bands: 4, samples: try reduced.pixels())
    let found = pixels.centroid { Double($0[3]) }
    #expect(abs(found.x - 33.5) < 0.02 && abs(found.y - 21) < 0.02, "reduced centroid \(found)")
  }

  /// The renderer works out a reduced stamp's size without building the reduce (its Lanczos masks cost 0.5-1.5 ms),
  /// and draws it with libvips' own: the two must agree for every size and factor, halves included (5 / 2 = 2.5 is
  /// 3 pixels, where rounding half to even would make 2). Checked on libvips' reduce, both axes at once.
  @Test func theReducedSizeIsLibvipsOwn() throws {
    let lengths = [1, 2, 3, 5, 7, 8, 13, 31, 64, 97, 100, 101, 255, 353, 1000, 1001, 4095]
    let shrinks = [1.0, 1.0000001, 4.0 / 3, 1.4, 1.5, 2, 2.5, 1 / 0.3, 4, 6.999999, 7.9]
    var misses: [String] = []
    for (i, n) in lengths.enumerated() {
      let m = lengths[(i + 5) % lengths.count]
      let image = try Image.fromPixels([UInt8](repeating: 128, count: n * m), width: n, height: m, bands: 1)
      for shrink in shrinks where Double(min(n, m)) / shrink >= 0.5 {
        let (hs, vs) = (shrink, max(1, shrink * 0.9))
        let reduced = try image.derive("reduce") { scv_reduce($0, &$1, hs, vs) }
        let worked = Reduction(hshrink: hs, vshrink: vs, from: (n, m)).to
        if worked != (reduced.width, reduced.height) {
          misses.append(
            "\(n) x \(m) by \(hs) x \(vs): libvips \(reduced.width) x \(reduced.height), worked out \(worked)")
        }
      }
    }
    #expect(misses.isEmpty, "\(misses)")
    #expect(Reduction.reducedLength(5, by: 2) == 3 && Reduction.reducedLength(7, by: 1.4) == 5)
  }

  /// The blob placed at (120.3, 100.7) on a black photo lands there to 0.05 px at every scale from 0.3 to 2,
  /// reduced (below 0.75) or not, turned or not: its intensity-weighted centroid is the centre. Upright in steps of
  /// 0.0125; turned in steps of 0.025 from 0.30625, between those (each render costs a libvips pipeline).
  @Test(arguments: [(0.0, 0.3, 0.0125), (30, 0.30625, 0.025), (-115, 0.30625, 0.025)])
  func blobLandsOnItsCentreAtEveryScale(_ rotation: Double, _ first: Double, _ step: Double) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let stamp = try Self.blob(fixtures)
    let base = try Image.fromPixels(
      [UInt8](repeating: 0, count: 240 * 200 * 3), width: 240, height: 200, bands: 3)
    let renderer = Renderer()
    let center = StampPoint(120.3, 100.7)
    var misses: [String] = []
    for scale in stride(from: first, through: 2, by: step) {
      let placed = PlacedStamp(id: "b", center: center, size: StampSize(97, 61), scale: scale, rotation: rotation)
      let image = try renderer.compositor.composite(
        [.init(image: stamp, placement: placed)], onto: base, map: .identity)
      let found = Self.centroid(ofFirstBand: try image.pixels(), width: 240, bands: 3)
      if abs(found.x - center.x) > 0.05 || abs(found.y - center.y) > 0.05 {
        misses.append("scale \(scale): (\(found.x), \(found.y))")
      }
    }
    #expect(misses.isEmpty, "off by more than 0.05 px: \(misses.joined(separator: ", "))")
  }

  /// The centroid, in continuous coordinates, of the first band's samples (a plain loop: `Pixels.centroid` makes an
  /// array per pixel, too slow for hundreds of pictures in a debug build).
  static func centroid(ofFirstBand samples: [UInt8], width: Int, bands: Int) -> (x: Double, y: Double) {
    var (sx, sy, mass) = (0.0, 0.0, 0.0)
    samples.withUnsafeBufferPointer { buffer in
      for index in stride(from: 0, to: buffer.count, by: bands) where buffer[index] != 0 {
        let pixel = index / bands
        let w = Double(buffer[index])
        sx += w * (Double(pixel % width) + 0.5)
        sy += w * (Double(pixel / width) + 0.5)
        mass += w
      }
    }
    return (sx / mass, sy / mass)
  }
}
