import Foundation
import StampCore
import StampTestSupport
import Testing

@testable import StampRender

@Suite("Stamps with transparent margins: only what shows is resampled")
struct TransparentMarginTests {
  @Test func boundsHoldEveryNonZeroSample() {
    // 5 x 4, non-zero at (1, 1) and (3, 2): columns 1 ..< 4, rows 1 ..< 3.
    var alpha = [UInt8](repeating: 0, count: 20)
    alpha[1 * 5 + 1] = 1
    alpha[2 * 5 + 3] = 255
    #expect(
      PreparedStamp.bounds(ofNonZero: alpha, width: 5, height: 4) == GridRect(left: 1, top: 1, width: 3, height: 2))
    #expect(PreparedStamp.bounds(ofNonZero: [UInt8](repeating: 0, count: 20), width: 5, height: 4) == nil)
    #expect(
      PreparedStamp.bounds(ofNonZero: [UInt8](repeating: 9, count: 20), width: 5, height: 4)
        == GridRect(left: 0, top: 0, width: 5, height: 4))
  }

  /// A 64 x 56 stamp whose visible part is a 32 x 24 opaque patch with a hard edge in its middle: its layer covers the
  /// patch's image (grown by the resamplers' reach), not the whole stamp's, and the picture is the same to the
  /// sample as when the whole stamp is resampled, scaled up, down (through the Lanczos reduction) and turned.
  @Test(arguments: [(1.5, 30.0), (0.5, 200.0), (0.3, -75.0), (2.0, 0.0)])
  func trimmingTheMarginChangesNoPixel(_ placement: (scale: Double, rotation: Double)) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let stamp = try fixtures.picture("patch.png", width: 64, height: 56, bands: 4) { x, y in
      guard (16..<48).contains(x), (16..<40).contains(y) else { return [0, 0, 0, 0] }
      return [UInt8(4 * x), UInt8(255 - 4 * y), 250, 255]
    }
    let base = try fixtures.picture("base.png", width: 160, height: 140, bands: 3) { x, y in
      [UInt8(x % 256), UInt8((2 * y) % 256), UInt8((x + y) % 256)]
    }
    let plan = RenderPlan(
      base: base,
      stamps: [
        .init(
          image: stamp,
          placement: PlacedStamp(
            id: "p", center: StampPoint(80.3, 69.6), size: StampSize(64, 56), scale: placement.scale,
            rotation: placement.rotation))
      ])
    var renderer = Renderer()
    let trimmedLayer = try #require(
      renderer.compositor.layers(plan.stamps, map: .identity, width: 160, height: 140).first)
    try renderer.render(plan, to: fixtures.path("trimmed.png"))
    renderer = Renderer()
    renderer.compositor.trimsTransparentMargins = false
    let wholeLayer = try #require(
      renderer.compositor.layers(plan.stamps, map: .identity, width: 160, height: 140).first)
    try renderer.render(plan, to: fixtures.path("whole.png"))
    let trimmed = try Pixels(fixtures.path("trimmed.png"))
    let whole = try Pixels(fixtures.path("whole.png"))
    let untouched = try Pixels(base)
    let differing = zip(trimmed.samples, whole.samples).filter { $0 != $1 }.count
    #expect(trimmed.samples.count == whole.samples.count)
    #expect(differing == 0, "\(differing) samples differ")
    #expect(zip(trimmed.samples, untouched.samples).contains { $0 != $1 })
    // The patch is half the stamp each way: its box is about half the whole stamp's across.
    let ratio =
      Double(trimmedLayer.box.width * trimmedLayer.box.height)
      / Double(wholeLayer.box.width * wholeLayer.box.height)
    #expect(ratio < 0.5, "trimmed layer \(trimmedLayer.box), whole \(wholeLayer.box)")
  }

  /// A stamp with no visible pixel draws nothing and has no layer.
  @Test func whollyTransparentStampDrawsNothing() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let stamp = try fixtures.solid("clear.png", width: 30, height: 30, pixel: [255, 0, 0, 0])
    let placed = RenderPlan.Stamp(
      image: stamp,
      placement: PlacedStamp(id: "c", center: StampPoint(20, 20), size: StampSize(30, 30), scale: 1, rotation: 0))
    #expect(try Renderer().compositor.layers([placed], map: .identity, width: 40, height: 40).isEmpty)
  }
}
