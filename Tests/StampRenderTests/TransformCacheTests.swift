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
