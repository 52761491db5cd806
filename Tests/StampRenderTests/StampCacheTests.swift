import Foundation
import StampCore
import Testing

@testable import StampRender

@Suite("Stamps decoded once per process")
struct StampCacheTests {
  /// Six renders drawing two stamp files, from two threads at once: two decodes, each premultiplied in 8 bits
  /// (a half-transparent white becomes 128, 128, 128, 128), and a missing file fails every time it is asked for.
  @Test func eachStampFileIsDecodedOnceAndShared() async throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.solid("base.png", width: 40, height: 30, pixel: [0, 0, 0])
    let a = try fixtures.solid("a.png", width: 8, height: 8, pixel: [255, 255, 255, 128])
    let b = try fixtures.solid("b.png", width: 8, height: 8, pixel: [0, 255, 0, 255])
    let renderer = Renderer()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for i in 0..<6 {
        group.addTask {
          let stamps = [a, b].map {
            RenderPlan.Stamp(
              image: $0,
              placement: PlacedStamp(id: "s", center: StampPoint(20, 15), size: StampSize(8, 8), scale: 1, rotation: 0)
            )
          }
          try renderer.render(RenderPlan(base: base, stamps: stamps), to: fixtures.path("out\(i).png"))
        }
      }
      try await group.waitForAll()
    }
    #expect(renderer.cache.count == 2)
    #expect(try renderer.cache.stamp(a).image.pixels().prefix(4) == [128, 128, 128, 128])
    for _ in 0..<2 {
      #expect(throws: RenderError.self) { try renderer.cache.stamp(fixtures.path("missing.png")) }
    }
    #expect(renderer.cache.count == 3)
  }
}

extension StampCacheTests {
  /// Bug 10: the cache had no bound (six distinct 99-megapixel stamps took 2.6 GB). Now it keeps `budget` bytes
  /// of decoded stamps (8x8 premultiplied RGBA: 256 bytes each), dropping the least recently used first.
  @Test func theCacheKeepsItsBudgetDroppingTheLeastRecentlyUsed() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let stamps = try ["a", "b", "c", "d"].map {
      try fixtures.solid("\($0).png", width: 8, height: 8, pixel: [9, 9, 9, 255])
    }
    let cache = StampCache(budget: 3 * 256)
    for stamp in stamps.prefix(3) { _ = try cache.stamp(stamp) }
    #expect((cache.count, cache.heldBytes) == (3, 768))
    _ = try cache.stamp(stamps[0])
    _ = try cache.stamp(stamps[3])
    #expect((cache.count, cache.heldBytes) == (3, 768))
    #expect(stamps.map { cache.holds($0) } == [true, false, true, true], "b, used least recently, went")
    // Dropped, it is decoded again when asked for.
    #expect(try cache.stamp(stamps[1]).pixelSize == StampSize(8, 8))
    #expect(stamps.map { cache.holds($0) } == [true, true, false, true])
    // One stamp over the budget is still drawn: it is the only one held.
    let big = StampCache(budget: 100)
    #expect(try big.stamp(stamps[0]).pixelSize == StampSize(8, 8))
    _ = try big.stamp(stamps[1])
    #expect((big.count, big.heldBytes) == (1, 256))
  }
}
