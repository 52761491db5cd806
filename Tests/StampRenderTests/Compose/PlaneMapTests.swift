import StampCore
import Testing

@testable import StampRender

@Suite("Mapping upright image space to a JPEG's stored frame")
struct PlaneMapTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var orientation: Int
    /// Where the upright top-left corner pixel's centre (0.5, 0.5) is stored, worked out from the EXIF
    /// definitions for a stored frame of 40 x 30 (upright 30 x 40 for 5...8).
    var topLeft: StampPoint
    /// Where the upright point one pixel to the right of it, (1.5, 0.5), is stored.
    var right: StampPoint
    var testDescription: String { "orientation \(orientation)" }
  }

  static let cases: [Case] = [
    Case(orientation: 1, topLeft: StampPoint(0.5, 0.5), right: StampPoint(1.5, 0.5)),
    Case(orientation: 2, topLeft: StampPoint(39.5, 0.5), right: StampPoint(38.5, 0.5)),
    Case(orientation: 3, topLeft: StampPoint(39.5, 29.5), right: StampPoint(38.5, 29.5)),
    Case(orientation: 4, topLeft: StampPoint(0.5, 29.5), right: StampPoint(1.5, 29.5)),
    // 5: stored = upright transposed: upright row 0 is stored column 0, read downwards.
    Case(orientation: 5, topLeft: StampPoint(0.5, 0.5), right: StampPoint(0.5, 1.5)),
    // 6: rotate the stored frame 90 clockwise to display: the upright top row is the stored left column, read
    // upwards from the bottom.
    Case(orientation: 6, topLeft: StampPoint(0.5, 29.5), right: StampPoint(0.5, 28.5)),
    Case(orientation: 7, topLeft: StampPoint(39.5, 29.5), right: StampPoint(39.5, 28.5)),
    // 8: rotate 90 anticlockwise to display: the upright top row is the stored right column, read downwards.
    Case(orientation: 8, topLeft: StampPoint(39.5, 0.5), right: StampPoint(39.5, 1.5)),
  ]

  @Test(arguments: cases)
  func uprightCornersLandWhereEXIFSays(_ c: Case) {
    let map = PlaneMap.uprightToStored(orientation: c.orientation, width: 40, height: 30)
    #expect(map.apply(StampPoint(0.5, 0.5)) == c.topLeft)
    #expect(map.apply(StampPoint(1.5, 0.5)) == c.right)
  }

  @Test func compositionAppliesTheFirstMapFirst() {
    let rotate = PlaneMap.uprightToStored(orientation: 6, width: 40, height: 30)
    let shift = PlaneMap.translation(-8, -16)
    let both = shift.after(rotate)
    let p = StampPoint(3, 7)
    let expected = shift.apply(rotate.apply(p))
    #expect(both.apply(p) == expected)
    #expect(expected == StampPoint(7 - 8, 30 - 3 - 16))
  }
}
