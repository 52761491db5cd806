import Foundation
import StampCore
import StampTestSupport
import Testing

@testable import StampBatch
@testable import StampRender

@Suite("Overlay pictures of what happened")
struct OverlayTests {
  /// A tap at image (60, 40) on a black 200 x 100 photo: the overlay copy has the magenta gesture mark centred
  /// there, a finger dot and ring of the first finger colour (#00e5ff) around the same spot, the plain output is
  /// untouched, and pixels far from the mark stay black.
  @Test func theOverlayMarksTheRecognizedPointAtItsPixel() throws {
    let w = try Workspace()
    defer { w.remove() }
    try w.ppm("photo.ppm", width: 200, height: 100, rgb: [0, 0, 0])
    try w.write(
      "m.json",
      #"{"version": 1, "jobs": [{"id": "t", "base": "photo.ppm", "output": "t.png", "overlay": true, "gestures": [{"tap": {"at": [60, 40]}}]}]}"#
    )
    let outcomes = try BatchRunner(options: BatchOptions(outputFolder: w.path("out"))).run(try w.jobs("m.json"))
    #expect(outcomes.first?.outputs == ["t.png", "t.overlay.png"], "\(outcomes.first?.error ?? "")")
    let overlay = try Pixels(w.path("out/t.overlay.png"))
    #expect(overlay[60, 40] == [255, 0, 255], "the mark at the tap")
    // The mark is a diamond of half-diagonal 6 * sqrt(2) for a line width of 2: magenta at (64, 40), not at (70, 40).
    #expect(overlay[64, 40] == [255, 0, 255])
    #expect(overlay[60, 90] == [0, 0, 0] && overlay[150, 40] == [0, 0, 0])
    // The lifted finger's ring (radius 10, width 2) of the first finger colour, around the tap: pixel 49's centre
    // is 10.5 left of it, outside the diamond (which reaches 51.5).
    let ring = overlay[49, 40]
    #expect(ring[0] < 40 && ring[1] > 180 && ring[2] > 200, "ring \(ring)")
    let plain = try Pixels(w.path("out/t.png"))
    #expect(plain.samples.allSatisfy { $0 == 0 })
  }

  @Test func overlayFilesSitBesideTheOutput() {
    #expect(JobRenderer.overlayPath(for: "a/b.jpg") == "a/b.overlay.jpg")
    #expect(JobRenderer.overlayPath(for: "x.y/b") == "x.y/b.overlay")
    #expect(JobRenderer.overlayPath(for: "b.tar.png") == "b.tar.overlay.png")
  }

  /// A stamp's outline passes through its rotated corners: a 20 x 10 stamp at (50, 50) turned 90 degrees has its
  /// top-left corner at (55, 40).
  @Test func stampOutlinesFollowTheRotatedRectangle() {
    let corners = Overlay.corners(
      of: PlacedStamp(id: "s", center: Point(50, 50), size: Size(20, 10), scale: 1, rotation: 90))
    let expected = [Point(55, 40), Point(55, 60), Point(45, 60), Point(45, 40)]
    for (c, e) in zip(corners, expected) { #expect(abs(c.x - e.x) < 1e-9 && abs(c.y - e.y) < 1e-9) }
  }
}
