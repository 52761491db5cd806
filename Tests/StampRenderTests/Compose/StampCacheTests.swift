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

  /// The cache was keyed by the path alone, so a stamp replaced during a batch was drawn as it first was for
  /// the rest of the batch, and one missing at first failed every later job. Now each request compares the file's
  /// version (device, inode, size, modification and change times) with the one decoded: a stamp renamed over, one
  /// rewritten in place, and one that appears are each decoded again; an unchanged one is not.
  @Test func aStampReplacedOrRewrittenOrAppearingIsDecodedAgain() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let cache = StampCache()
    let stamp = try fixtures.solid("s.png", width: 4, height: 4, pixel: [255, 0, 0, 255])
    let first = try cache.stamp(stamp)
    #expect(try first.image.pixels().prefix(4) == [255, 0, 0, 255])
    #expect(try cache.stamp(stamp) === first)

    let blue = try fixtures.solid("blue.png", width: 4, height: 4, pixel: [0, 0, 255, 255])
    #expect(rename(blue, stamp) == 0)
    #expect(try cache.stamp(stamp).image.pixels().prefix(4) == [0, 0, 255, 255])

    // Rewritten through the same inode, at another size.
    _ = try fixtures.solid("s.png", width: 6, height: 6, pixel: [0, 255, 0, 255])
    let green = try cache.stamp(stamp)
    #expect(try green.image.pixels().prefix(4) == [0, 255, 0, 255] && green.pixelSize == StampSize(6, 6))
    #expect(cache.count == 1)

    let late = fixtures.path("late.png")
    #expect(throws: RenderError.self) { try cache.pixelSize(of: late) }
    _ = try fixtures.solid("late.png", width: 5, height: 3, pixel: [9, 9, 9, 255])
    #expect(try cache.pixelSize(of: late) == StampSize(5, 3))
  }

  /// A stamp's header is read once for each version of its file (the replay and the drawing each asked for it, a read
  /// each, every job): kept while the file is the same, read again when it is rewritten in place or renamed over, and
  /// never served for a file that is gone. The pixel limit holds for a header kept as for one read.
  @Test func aStampsHeaderIsKeptOnlyWhileItsFileIsTheSame() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let cache = StampCache(maxPixels: 30)
    let stamp = try fixtures.solid("s.png", width: 4, height: 4, pixel: [255, 0, 0, 255])
    #expect(!cache.holdsHeader(stamp))
    #expect(try cache.pixelSize(of: stamp) == StampSize(4, 4))
    #expect(cache.holdsHeader(stamp))
    #expect(try cache.pixelSize(of: stamp) == StampSize(4, 4))

    _ = try fixtures.solid("s.png", width: 5, height: 3, pixel: [0, 255, 0, 255])  // the same inode
    #expect(try cache.pixelSize(of: stamp) == StampSize(5, 3))
    let other = try fixtures.solid("other.png", width: 2, height: 7, pixel: [0, 0, 255, 255])
    #expect(rename(other, stamp) == 0)
    #expect(try cache.pixelSize(of: stamp) == StampSize(2, 7))

    _ = try fixtures.solid("s.png", width: 6, height: 6, pixel: [0, 0, 0, 255])  // 36 pixels, over the limit
    #expect(throws: RenderError.self) { try cache.pixelSize(of: stamp) }
    #expect(unlink(stamp) == 0)
    #expect(throws: RenderError.self) { try cache.pixelSize(of: stamp) }
  }
}
