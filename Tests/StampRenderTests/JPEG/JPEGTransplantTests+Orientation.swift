import Foundation
import StampCore
import StampFiles
import StampTestShim
import StampTestSupport
import Testing

@testable import StampRender

extension JPEGTransplantTests {
  /// The lossless path on a photo of each EXIF orientation, stored 203 x 157 at 4:2:0 (a partial MCU on both
  /// sides), under three turned, half-transparent stamps, two of them over the upright photo's right and bottom
  /// edges: every pixel it redrew is, to the level, what libjpeg alone makes of the same edit, that is the photo's
  /// own blocks, and in each block the output changed, libjpeg's encoding (the photo's tables and sampling) of the
  /// pixel path's picture turned back into the stored frame by EXIF's definitions.
  @Test(arguments: 1...8, [true, false])
  func eachOrientationRedrawsWhatLibjpegEncodes(_ orientation: Int, splicing: Bool) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let (width, height) = (203, 157)
    let base = try fixtures.jpeg(
      "base.jpg", width: width, height: height, subsampling: .half, orientation: orientation
    ) { Fixtures.texture($0, $1) }
    let stamp = try fixtures.picture("stamp.png", width: 24, height: 18, bands: 4) { x, y in
      [UInt8(200 - x * 5), UInt8(40 + y * 9), 90, UInt8(110 + (x + y) * 3)]
    }
    let turned = orientation >= 5
    let (uprightWidth, uprightHeight) = turned ? (height, width) : (width, height)
    let placements = [
      (StampPoint(30, 40), 25.0), (StampPoint(Double(uprightWidth - 6), Double(uprightHeight) / 2), -15.0),
      (StampPoint(Double(uprightWidth) / 2, Double(uprightHeight - 5)), 40.0),
    ]
    let plan = RenderPlan(
      base: base,
      stamps: placements.enumerated().map { k, placed in
        RenderPlan.Stamp(
          image: stamp,
          placement: PlacedStamp(
            id: "s\(k)", center: placed.0, size: StampSize(24, 18), scale: 1.3, rotation: placed.1))
      })
    let output = fixtures.path("out.jpg")
    let picture = fixtures.path("out.png")
    let (renderer, path) = JPEGTransplantTests.renderer(splicing: splicing)
    #expect(try renderer.render(plan, to: output) == path)
    try Renderer().render(plan, to: picture)
    let upright = try Pixels(picture)
    try #require(upright.width == uprightWidth && upright.height == uprightHeight && upright.bands >= 3)
    // Stored pixel (x, y) is shown upright at (u, v), as EXIF defines each orientation.
    var stored = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
      for x in 0..<width {
        let (u, v): (Int, Int)
        switch orientation {
        case 2: (u, v) = (width - 1 - x, y)
        case 3: (u, v) = (width - 1 - x, height - 1 - y)
        case 4: (u, v) = (x, height - 1 - y)
        case 5: (u, v) = (y, x)
        case 6: (u, v) = (height - 1 - y, x)
        case 7: (u, v) = (height - 1 - y, width - 1 - x)
        case 8: (u, v) = (y, width - 1 - x)
        default: (u, v) = (x, y)
        }
        let p = upright[u, v]
        for k in 0..<3 { stored[(y * width + x) * 3 + k] = p[k] }
      }
    }
    let expected = fixtures.path("expected.jpg")
    var message = [CChar](repeating: 0, count: 256)
    let status = sjt_fixture_expected(
      base, output, stored, Int32(width), Int32(height), expected, &message, message.count)
    try #require(status == 0, "\(message.nulTerminatedText)")
    let (made, wanted, photo) = (try libjpegDecode(output), try libjpegDecode(expected), try libjpegDecode(base))
    var redrawn = 0
    var differing = 0
    for i in stride(from: 0, to: made.samples.count, by: 3) where made.samples[i..<i + 3] != photo.samples[i..<i + 3] {
      redrawn += 1
      if made.samples[i..<i + 3] != wanted.samples[i..<i + 3] { differing += 1 }
    }
    #expect(redrawn > 1000, "\(redrawn) pixels redrawn")
    #expect(differing == 0, "\(differing) of \(redrawn) redrawn pixels differ")
  }
}
