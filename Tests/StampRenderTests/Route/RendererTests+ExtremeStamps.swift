import Foundation
import StampCore
import StampTestSupport
import Testing

@testable import StampRender

@Suite("Stamps far larger or smaller than the photo")
struct ExtremeStampTests {
  func plan(_ base: String, _ stamp: String, center: StampPoint, width: Double) -> RenderPlan {
    RenderPlan(
      base: base, stamp: stamp,
      placement: PlacedStamp(id: "s", center: center, size: StampSize(width, width / 2), scale: 1, rotation: 0))
  }

  /// A 40 x 20 stamp, red left half and green right half, drawn 80,000 pixels wide and centred on a 100 x 80
  /// photo: the photo sees only the middle of the stamp, where red meets green at x = 50. The transition is
  /// 2,000 pixels wide at that scale, so it is mirror-symmetric about x = 50: column 50 - k has the red of
  /// column 49 + k as its green, and the whole photo is covered (alpha 1 everywhere).
  @Test func aHugeStampIsPlacedExactlyThroughItsVisibleWindow() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.solid("base.png", width: 100, height: 80, pixel: [0, 0, 255])
    let stamp = try fixtures.picture("stamp.png", width: 40, height: 20, bands: 4) { x, _ in
      x < 20 ? [255, 0, 0, 255] : [0, 255, 0, 255]
    }
    let output = fixtures.path("out.png")
    try Renderer().render(plan(base, stamp, center: StampPoint(50, 40), width: 80_000), to: output)
    let pixels = try Pixels(output)
    for k in [0, 10, 30, 49] {
      let left = pixels[49 - k, 40].map(Int.init)
      let right = pixels[50 + k, 40].map(Int.init)
      #expect(abs(left[0] - right[1]) <= 1 && abs(left[1] - right[0]) <= 1, "k \(k): \(left) vs \(right)")
      #expect(left[2] == 0 && left[0] >= left[1], "k \(k): \(left)")
    }
    #expect(pixels.samples.enumerated().allSatisfy { $0.offset % 3 != 2 || $0.element == 0 }, "no blue shows")
  }

  @Test func aStampSmallerThanHalfAPixelIsNotDrawn() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.solid("base.png", width: 30, height: 20, pixel: [9, 9, 9])
    let stamp = try fixtures.solid("stamp.png", width: 40, height: 20, pixel: [255, 255, 255, 255])
    let output = fixtures.path("out.png")
    try Renderer().render(plan(base, stamp, center: StampPoint(15, 10), width: 0.4), to: output)
    #expect(try Pixels(output).samples.allSatisfy { $0 == 9 })
  }

  @Test func aStampOverAMillionPixelsAcrossIsAnErrorNamingIt() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.solid("base.png", width: 30, height: 20, pixel: [9, 9, 9])
    let stamp = try fixtures.solid("stamp.png", width: 40, height: 20, pixel: [255, 255, 255, 255])
    let output = fixtures.path("out.png")
    do {
      try Renderer().render(plan(base, stamp, center: StampPoint(15, 10), width: 2_000_000), to: output)
      Issue.record("a 2,000,000-pixel stamp was drawn")
    } catch let error as RenderError {
      #expect(error.description.contains("stamp.png") && error.description.contains("over the limit of 1000000"))
    }
    #expect(!FileManager.default.fileExists(atPath: output))
  }
}
