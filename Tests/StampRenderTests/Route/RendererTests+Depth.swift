import CVips
import CVipsGlue
import Foundation
import StampCore
import StampTestShim
import StampTestSupport
import Testing

@testable import StampRender

/// 16-bit PNG and TIFF photos used to come out 8-bit even with no stamp. Now they stay 16-bit in PNG and TIFF
/// outputs, stamps composited at that depth.
struct RendererDepthTests {
  /// The 16-bit samples of the file at `path` (every band of every pixel), and its band format.
  static func samples16(_ path: String) throws -> (VipsBandFormat, [UInt16]) {
    let image = try Image.open(path, sequential: false)
    var length = 0
    let raw = try #require(vips_image_write_to_memory(image.pointer, &length))
    defer { g_free(raw) }
    guard image.format == VIPS_FORMAT_USHORT else { return (image.format, []) }
    return (
      image.format, Array(UnsafeBufferPointer(start: raw.assumingMemoryBound(to: UInt16.self), count: length / 2))
    )
  }

  @Test(arguments: ["png", "tif"], [false, true])
  func aSixteenBitPhotoStaysSixteenBit(_ format: String, _ stamped: Bool) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    // A grey photo of 100 * 257 = 25700 in 16 bits.
    let eight = try Image.fromPixels([UInt8](repeating: 100, count: 16 * 12 * 3), width: 16, height: 12, bands: 3)
    let deep = try eight.derive("widen") { scv_widen_to_rgb16($0, &$1) }
    let base = fixtures.path("base.\(format)")
    #expect((format == "png" ? scv_save_png(deep.pointer, base) : scv_save_tiff(deep.pointer, base)) == 0)
    let stamp = try fixtures.solid("half.png", width: 4, height: 4, pixel: [255, 255, 255, 128])
    let placement = PlacedStamp(id: "s", center: StampPoint(8, 6), size: StampSize(4, 4), scale: 1, rotation: 0)
    let plan = RenderPlan(base: base, stamps: stamped ? [.init(image: stamp, placement: placement)] : [])
    let output = fixtures.path("out.\(format)")
    try Renderer().render(plan, to: output)
    let (bandFormat, samples) = try Self.samples16(output)
    #expect(bandFormat == VIPS_FORMAT_USHORT)
    #expect(samples.count == 16 * 12 * 3)
    #expect(samples.first == 25700)
    if stamped {
      // Premultiplied white at alpha 128/255, widened (x 257): 32896 over 25700 * (1 - 32896 / 65535) = 45695.6.
      let centre = (6 * 16 + 8) * 3
      #expect(abs(Int(samples[centre]) - 45696) <= 1, "\(samples[centre])")
    }
  }

  @Test func aSixteenBitPhotoWrittenAsJPEGIsEightBit() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let eight = try Image.fromPixels([UInt8](repeating: 100, count: 8 * 8 * 3), width: 8, height: 8, bands: 3)
    let deep = try eight.derive("widen") { scv_widen_to_rgb16($0, &$1) }
    let base = fixtures.path("base.png")
    #expect(scv_save_png(deep.pointer, base) == 0)
    try Renderer().render(RenderPlan(base: base, stamps: []), to: fixtures.path("out.jpg"))
    let written = try DecodedImage(contentsOf: fixtures.path("out.jpg"))
    #expect(abs(Int(written.samples[0]) - 100) <= 1)
  }
}
