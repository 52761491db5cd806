import Foundation
import StampCore
import StampManifest
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

  /// The label "tap" is drawn at (72, 28) (its baseline, 18 px type for a 200 x 100 photo) to the upper right of
  /// a tap at (60, 40). In the box x 71-139, y 4-31, which holds the label and none of the mark, finger dot or
  /// ring, the glyphs keep a light ring (luma over 200) on a black photo, a dark ring (luma under 50) on a white
  /// one, and both on a mid-grey one, each wide enough to read (over 100 pixels, a ring of 1-2 px around the
  /// glyphs), with the magenta glyphs inside.
  @Test(arguments: [(UInt8(0), true, false), (UInt8(255), false, true), (UInt8(128), true, true)])
  func labelsKeepAContrastingRingOnAnyPhoto(grey: UInt8, needsLight: Bool, needsDark: Bool) throws {
    let w = try Workspace()
    defer { w.remove() }
    try w.ppm("photo.ppm", width: 200, height: 100, rgb: [grey, grey, grey])
    try w.write(
      "m.json",
      #"{"version": 1, "jobs": [{"id": "t", "base": "photo.ppm", "output": "t.png", "overlay": true, "gestures": [{"tap": {"at": [60, 40]}}]}]}"#
    )
    let outcomes = try BatchRunner(options: BatchOptions(outputFolder: w.path("out"))).run(try w.jobs("m.json"))
    #expect(outcomes.first?.status == .ok, "\(outcomes.first?.error ?? "")")
    let overlay = try Pixels(w.path("out/t.overlay.png"))
    var (light, dark, glyph) = (0, 0, 0)
    for y in 4...31 {
      for x in 71...139 {
        let p = overlay[x, y].map(Double.init)
        let luma = 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]
        if luma > 200 { light += 1 }
        if luma < 50 { dark += 1 }
        if p[0] > 200 && p[1] < 80 && p[2] > 200 { glyph += 1 }
      }
    }
    let background = 69 * 28
    #expect(glyph > 30, "magenta glyph pixels: \(glyph)")
    if needsLight { #expect(light > 100 && light < background / 2, "light ring pixels: \(light)") }
    if needsDark { #expect(dark > 100 && dark < background / 2, "dark ring pixels: \(dark)") }
  }

  @Test func overlayFilesSitBesideTheOutput() {
    #expect(PathRules.overlay(of: "a/b.jpg") == "a/b.overlay.jpg")
    #expect(PathRules.overlay(of: "x.y/b") == "x.y/b.overlay")
    #expect(PathRules.overlay(of: "b.tar.png") == "b.tar.overlay.png")
  }

  /// A stamp's outline passes through its rotated corners: a 20 x 10 stamp at (50, 50) turned 90 degrees has its
  /// top-left corner at (55, 40).
  @Test func stampOutlinesFollowTheRotatedRectangle() {
    let corners = Overlay.corners(
      of: PlacedStamp(id: "s", center: StampPoint(50, 50), size: StampSize(20, 10), scale: 1, rotation: 90))
    let expected = [StampPoint(55, 40), StampPoint(55, 60), StampPoint(45, 60), StampPoint(45, 40)]
    for (c, e) in zip(corners, expected) { #expect(abs(c.x - e.x) < 1e-9 && abs(c.y - e.y) < 1e-9) }
  }
}
