import CVips
import Foundation
import StampTestSupport
import Testing

@testable import StampRender

@Suite("A redrawn region's composite written into the codec's buffer, in the job's thread or by libvips' workers")
struct ImageWriteIntoTests {
  /// 70 rows (the job's thread computes 32 at a time: two whole strips and a short one) of grey 100, a red stamp
  /// over rows 20-49 and columns 10-29: opaque on its left half, alpha 128 on its right half (premultiplied, as the
  /// compositor takes its layers).
  static func composite(_ fixtures: Fixtures) throws -> Image {
    let (width, height) = (41, 70)
    let base = try Image.fromPixels(
      [UInt8](repeating: 100, count: width * height * 3), width: width, height: height, bands: 3)
    let stamp = try fixtures.picture("stamp.png", width: 20, height: 30, bands: 4) { x, _ in
      let alpha = x < 10 ? 255 : 128
      return [UInt8(alpha * 200 / 255), 0, 0, UInt8(alpha)]
    }
    let layer = Layer(image: try Image.open(stamp, sequential: false), left: 10, top: 20)
    return try Compositor(cache: StampCache()).blend([layer], onto: base, left: 0, top: 0)
  }

  /// The over operator by hand: out = stamp + base x (1 - alpha), premultiplied, rounded.
  static func expected(x: Int, y: Int) -> [UInt8] {
    guard (10..<30).contains(x), (20..<50).contains(y) else { return [100, 100, 100] }
    let alpha = x < 20 ? 1.0 : 128.0 / 255
    let red = (alpha * 200).rounded(.down) + 100 * (1 - alpha)
    return [UInt8(red.rounded()), UInt8((100 * (1 - alpha)).rounded()), UInt8((100 * (1 - alpha)).rounded())]
  }

  @Test func bothWaysGiveTheOverOperatorsPixels() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    defer { _ = try? Vips.shareCores(among: 1) }
    var results: [[UInt8]] = []
    for jobs in [2, 1] {
      // Two jobs on two cores: one thread a pipeline, computed in the caller's thread; one job: libvips' workers.
      try Vips.shareCores(among: jobs, cores: 2)
      let image = try Self.composite(fixtures)
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: image.width * image.height * 3, alignment: 1)
      defer { buffer.deallocate() }
      buffer.initializeMemory(as: UInt8.self, repeating: 7)
      try image.write(into: buffer, under: nil)
      results.append(Array(buffer))
    }
    // Compared whole, printed as a count: a failure would otherwise print 8,610 samples twice.
    let image = try Self.composite(fixtures)
    let bySink = try image.pixels()
    #expect(zip(results[0], results[1]).filter { $0 != $1 }.count == 0, "the job's thread against libvips' workers")
    #expect(zip(results[0], bySink).filter { $0 != $1 }.count == 0, "against vips_image_write_to_memory")
    #expect(results[0].count == bySink.count)
    for y in 0..<image.height {
      for x in 0..<image.width {
        let got = Array(results[0][(y * image.width + x) * 3..<(y * image.width + x + 1) * 3])
        let want = Self.expected(x: x, y: y)
        #expect(zip(got, want).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "(\(x), \(y)): \(got) against \(want)")
      }
    }
  }

  /// A buffer one row short is refused, whichever way the image would be computed.
  @Test func aBufferTooSmallIsRefused() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let image = try Self.composite(fixtures)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: image.width * (image.height - 1) * 3, alignment: 1)
    defer { buffer.deallocate() }
    #expect(throws: RenderError.self) { try image.write(into: buffer, under: nil) }
  }
}
