import CVips
import Foundation
import Testing

@testable import StampRender

@Suite("libvips threads: each pipeline gets its share of the cores among the jobs in flight, in wide tiles")
struct CoreShareTests {
  /// ceil(cores / jobs), at least one: 64 jobs on 64 cores start 64 threads, not 64 x 64.
  @Test func eachPipelineGetsItsShareOfTheCores() throws {
    defer { _ = try? Vips.shareCores(among: 1) }
    for (jobs, cores, threads) in [(1, 2, 2), (2, 2, 1), (3, 2, 1), (64, 64, 1), (3, 64, 22), (1, 64, 64), (0, 4, 4)] {
      #expect(try Vips.shareCores(among: jobs, cores: cores) == threads, "\(jobs) jobs on \(cores) cores")
      #expect(vips_concurrency_get() == Int32(threads), "\(jobs) jobs on \(cores) cores")
    }
  }

  /// A pipeline holding a composite is computed in libvips' small tiles, set 256 pixels wide (`scv_widen_tiles`)
  /// rather than its default 128: half as many hand-offs to its worker threads.
  @Test func pipelinesWithACompositeRunInTilesTwoHundredFiftySixWide() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let image = try ImageWriteIntoTests.composite(fixtures)
    var (width, height, lines): (Int32, Int32, Int32) = (0, 0, 0)
    vips_get_tile_size(image.pointer, &width, &height, &lines)
    #expect(width == 256)
    #expect(height == 128)
  }
}
