import StampCore
import Testing

@testable import StampRender

@Suite struct StampGeometryTests {
  /// A placement far past Int's range (what a 1e-300 zoom made of a stamp's centre) used to trap in the box's
  /// conversion to pixels; it now misses the image.
  @Test func aCentreBeyondIntsRangeMissesTheImage() {
    for center in [StampPoint(1e300, 1e300), StampPoint(-1e300, 5), StampPoint(5, 9.3e18)] {
      let geometry = StampGeometry(
        sourceSize: StampSize(10, 10), sourceCenter: StampPoint(5, 5), linear: (1, 0, 0, 1), center: center,
        imageWidth: 100, imageHeight: 80)
      #expect(geometry.box == nil)
      #expect(geometry.sourceWindow(width: 10, height: 10) == nil)
    }
  }

  /// A stamp scaled by 1e30 about the image's centre covers the whole 100 x 80 image: its corners, at +-5e30,
  /// saturate and are clipped to the image.
  @Test func aHugeStampCoversTheWholeImage() throws {
    let geometry = StampGeometry(
      sourceSize: StampSize(10, 10), sourceCenter: StampPoint(5, 5), linear: (1e30, 0, 0, 1e30),
      center: StampPoint(50, 40),
      imageWidth: 100, imageHeight: 80)
    let box = try #require(geometry.box)
    #expect(box.left == 0 && box.top == 0 && box.width == 100 && box.height == 80)
  }

  /// Int(saturating:) clamps, and maps NaN to 0, where Int(_:) traps.
  @Test func saturatingConversion() {
    #expect(Int(saturating: 1e300) == .max)
    #expect(Int(saturating: -1e300) == .min)
    #expect(Int(saturating: .infinity) == .max)
    #expect(Int(saturating: .nan) == 0)
    #expect(Int(saturating: -2.7) == -2)
    #expect(Int(saturating: 9_223_372_036_854_774_784) == 9_223_372_036_854_774_784)
  }
}
