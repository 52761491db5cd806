import Foundation
import StampCore
import Testing

@testable import StampRender

@Suite("Transformed stamps reused across jobs")
struct TransformCacheTests {
  /// The same stamp at the same place in three jobs: the second run keeps the transform, the third reuses it,
  /// and all three pictures are the same bytes. A different angle is not mistaken for it.
  @Test func aRepeatedPlacementIsResampledOnceAndDrawsTheSame() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.solid("base.png", width: 120, height: 90, pixel: [40, 80, 120])
    let stamp = try fixtures.picture("stamp.png", width: 30, height: 20, bands: 4) { x, y in
      [UInt8(x * 8), UInt8(y * 12), 200, UInt8(128 + x)]
    }
    func plan(_ degrees: Double) -> RenderPlan {
      RenderPlan(
        base: base,
        stamps: [
          .init(
            image: stamp,
            placement: PlacedStamp(
              id: "s", center: StampPoint(60.3, 44.8), size: StampSize(30, 20), scale: 1.7, rotation: degrees))
        ])
    }
    let renderer = Renderer()
    var outputs: [Data] = []
    for i in 0..<3 {
      let path = fixtures.path("out\(i).png")
      try renderer.render(plan(25), to: path)
      outputs.append(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
    #expect(renderer.cache.transforms.hits == 1)
    #expect(outputs[0] == outputs[1] && outputs[1] == outputs[2])
    try renderer.render(plan(26), to: fixtures.path("other.png"))
    #expect(renderer.cache.transforms.hits == 1)
    #expect(try Data(contentsOf: URL(fileURLWithPath: fixtures.path("other.png"))) != outputs[0])
  }
}

extension TransformCacheTests {
  /// A stamp drawn strip after strip in one job (the JPEG path redraws a tall region 16 rows at a time here) is
  /// asked for once per strip: that is not a placement seen again, and nothing is kept until a second job asks.
  /// Keeping it filled the cache with one-job placements (64 MB more at the peak of a 12-megapixel batch).
  @Test func stripsOfOneJobAreNotARepeat() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.jpeg("base.jpg", width: 96, height: 96, subsampling: .none) { Fixtures.texture($0, $1) }
    let stamp = try fixtures.picture("stamp.png", width: 20, height: 60, bands: 4) { x, y in
      [UInt8(x * 10), UInt8(y * 4), 90, 255]
    }
    let plan = RenderPlan(
      base: base, stamp: stamp,
      placement: PlacedStamp(id: "s", center: StampPoint(48, 48), size: StampSize(20, 60), scale: 1, rotation: 10))
    var renderer = Renderer()
    renderer.stripHeight = 16
    #expect(try renderer.render(plan, to: fixtures.path("one.jpg")) == .spliced)
    #expect(renderer.cache.transforms.kept == 0)
    #expect(try renderer.render(plan, to: fixtures.path("two.jpg")) == .spliced)
    #expect(renderer.cache.transforms.kept == 1)
  }
}
