import Testing

@testable import StampRender

@Suite("JPEG codec pool: codecs kept between jobs, and given back")
struct JPEGCodecPoolTests {
  /// A codec used by a job waits idle for the next one (with its coefficient arrays); a job on the pixel path has
  /// the idle ones freed, so that it does not hold them and its own pixels at once.
  @Test func idleCodecsAreKeptThenDropped() throws {
    let pool = JPEGCodecPool(limit: 8)
    try pool.withCodec(stoppedBy: nil) { _ in
      try pool.withCodec(stoppedBy: nil) { _ in }
    }
    #expect(pool.idleCount == 2)
    pool.dropIdle()
    #expect(pool.idleCount == 0)
    try pool.withCodec(stoppedBy: nil) { _ in }
    #expect(pool.idleCount == 1)
  }
}
