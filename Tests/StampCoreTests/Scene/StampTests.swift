import Testing

@testable import StampCore

@Suite("Stamp: placement from view points and hit testing on the rotated rectangle")
struct StampTests {
  @Test("a stamp placed in view points lands in image pixels through the first viewport")
  func placement() {
    // 4000x3000 in 400x400: f = 0.1, inset (0, 50). A 50-point-wide stamp of a 100x50 image at view (200, 200).
    let viewport = Viewport(imageSize: StampSize(4000, 3000), viewSize: StampSize(400, 400), zoomRange: 1...4)
    let spec = StampSpec(id: "s", center: StampPoint(200, 200), width: 50, pixelSize: StampSize(100, 50))
    let stamp = Stamp(spec, in: viewport)
    #expect(close(stamp.center, StampPoint(2000, 1500)))
    #expect(stamp.size == StampSize(500, 250))
  }

  @Test("the default width is the stamp image's pixel width, in view points")
  func defaultWidth() {
    let viewport = Viewport(imageSize: StampSize(4000, 3000), viewSize: StampSize(400, 400), zoomRange: 1...4)
    let stamp = Stamp(StampSpec(id: "s", center: StampPoint(200, 200), pixelSize: StampSize(30, 60)), in: viewport)
    #expect(stamp.size == StampSize(300, 600))
  }

  struct HitCase: CustomTestStringConvertible, Sendable {
    let name: String
    let rotation: Double
    let scale: Double
    let point: StampPoint
    let inside: Bool
    var testDescription: String { name }
  }

  // A 100x20 stamp centred on (0, 0).
  static let hitCases: [HitCase] = [
    HitCase(name: "unrotated, along its length", rotation: 0, scale: 1, point: StampPoint(40, 0), inside: true),
    HitCase(name: "unrotated, above it", rotation: 0, scale: 1, point: StampPoint(0, 40), inside: false),
    HitCase(
      name: "turned 90: now along its length below", rotation: 90, scale: 1, point: StampPoint(0, 40), inside: true),
    HitCase(name: "turned 90: no longer to the side", rotation: 90, scale: 1, point: StampPoint(40, 0), inside: false),
    // Turned 45 clockwise its long axis runs down-right: (30, 30) is 42.4 along it, 0 across.
    HitCase(name: "turned 45: on the diagonal", rotation: 45, scale: 1, point: StampPoint(30, 30), inside: true),
    HitCase(
      name: "turned 45: off the other diagonal", rotation: 45, scale: 1, point: StampPoint(30, -30), inside: false),
    HitCase(
      name: "turned -45: on the other diagonal", rotation: -45, scale: 1, point: StampPoint(30, -30), inside: true),
    HitCase(name: "scaled 2: half-height 20", rotation: 0, scale: 2, point: StampPoint(0, 15), inside: true),
    HitCase(name: "edges count as inside", rotation: 0, scale: 1, point: StampPoint(50, 10), inside: true),
  ]

  @Test("hit testing uses the rotated, scaled rectangle", arguments: hitCases)
  func hitTest(_ c: HitCase) {
    let viewport = Viewport(imageSize: StampSize(1000, 1000), viewSize: StampSize(1000, 1000), zoomRange: 1...4)
    var stamp = Stamp(
      StampSpec(id: "s", center: .zero, pixelSize: StampSize(100, 20), rotation: c.rotation), in: viewport)
    stamp.scale = c.scale
    #expect(stamp.contains(c.point) == c.inside)
  }

  @Test("the reach to the edge along a direction")
  func reach() {
    let viewport = Viewport(imageSize: StampSize(1000, 1000), viewSize: StampSize(1000, 1000), zoomRange: 1...4)
    let flat = Stamp(StampSpec(id: "s", center: .zero, pixelSize: StampSize(100, 20)), in: viewport)
    #expect(close(flat.reach(along: StampPoint(-1, 0)), 50))
    let upright = Stamp(StampSpec(id: "s", center: .zero, pixelSize: StampSize(100, 20), rotation: 90), in: viewport)
    #expect(close(upright.reach(along: StampPoint(-1, 0)), 10))
  }
}
