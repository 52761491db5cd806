import Foundation
import StampCore
import StampManifest
import StampTestSupport
import Testing

@testable import StampBatch
@testable import StampRender

@Suite("Jobs end to end: gestures replayed onto the photo")
struct JobRendererTests {
  /// On a 400 x 300 view (fit 0.5 for an 800 x 600 photo) a 40-point stamp at view (200, 150) is an 80-pixel
  /// stamp at image (400, 300). Pinching it by 1.5 and turning 90 degrees, then dragging it by (50, 25) points,
  /// i.e. (100, 50) pixels, leaves it 120 pixels wide at (500, 350), its right (green) half below its centre:
  /// 10 stamp pixels * 2 * 1.5 = 30 image pixels down, at (500, 380).
  @Test func aPinchedAndDraggedStampLandsWhereTheNumbersSay() throws {
    let w = try Workspace()
    defer { w.remove() }
    try w.ppm("photo.ppm", width: 800, height: 600, rgb: [0, 0, 0])
    try w.ppm("stamp.ppm", width: 40, height: 40) { x, _ in x < 20 ? [255, 0, 0] : [0, 255, 0] }
    try w.write(
      "m.json",
      """
      {"version": 1, "jobs": [{"id": "p", "base": "photo.ppm", "output": "p.png", "view": {"width": 400, "height": 300},
        "stamps": [{"id": "s", "image": "stamp.ppm", "center": [200, 150], "width": 40}],
        "gestures": [{"pinch": {"on": "s", "scale": 1.5, "rotation": 90}}, {"drag": {"on": "s", "by": [50, 25]}}]}]}
      """)
    let outcomes = try BatchRunner(options: BatchOptions(outputFolder: w.path("out"))).run(try w.jobs("m.json"))
    #expect(outcomes.first?.status == .ok, "\(outcomes.first?.error ?? "")")
    let picture = try Pixels(w.path("out/p.png"))
    let all = picture.centroid { Double($0[0]) + Double($0[1]) }
    #expect(abs(all.x - 500) < 0.1 && abs(all.y - 350) < 0.1, "centre \(all.x), \(all.y)")
    #expect(abs(all.mass / 255 - 120 * 120) < 120 * 120 * 0.01)
    let green = picture.centroid { Double($0[1]) }
    #expect(abs(green.x - 500) < 0.2 && abs(green.y - 380) < 0.2, "green \(green.x), \(green.y)")
  }

  /// The viewer: a 400 x 300 photo on a 100 x 100 view is fitted at 0.25 (100 x 75) and centred with
  /// 12.5-point bars above and below. viewOutput draws exactly that, the bars black.
  @Test func viewOutputIsLetterboxedInBlack() throws {
    let w = try Workspace()
    defer { w.remove() }
    try w.ppm("photo.ppm", width: 400, height: 300, rgb: [100, 150, 200])
    try w.write(
      "m.json",
      """
      {"version": 1, "jobs": [{"id": "v", "base": "photo.ppm", "output": "v.png", "viewOutput": "screen.png",
        "view": {"width": 100, "height": 100, "screenScale": 2}}]}
      """)
    let outcomes = try BatchRunner(options: BatchOptions(outputFolder: w.path("out"))).run(try w.jobs("m.json"))
    #expect(outcomes.first?.outputs == ["v.png", "screen.png"])
    let screen = try Pixels(w.path("out/screen.png"))
    #expect(screen.width == 200 && screen.height == 200)
    // Bars: rows [0, 25) and [175, 200) at screen scale 2; the photo in between.
    for y in [0, 10, 23, 176, 199] { #expect(screen[100, y] == [0, 0, 0], "row \(y)") }
    for y in [27, 100, 172] {
      for x in [0, 100, 199] { #expect(screen[x, y] == [100, 150, 200], "(\(x), \(y))") }
    }
  }

  /// The screen shows image point p at (p - visible.origin) * factor: a white square centred at (100, 200) on a
  /// 400 x 300 photo, seen on a 100 x 100 view (factor 0.25, visible origin (0, -50)), is centred at (25, 62.5).
  @Test func viewOutputPlacesThePhotoToAFractionOfAPixel() throws {
    let w = try Workspace()
    defer { w.remove() }
    try w.ppm("photo.ppm", width: 400, height: 300) { x, y in
      (80..<120).contains(x) && (180..<220).contains(y) ? [255, 255, 255] : [0, 0, 0]
    }
    try w.write(
      "m.json",
      """
      {"version": 1, "jobs": [{"id": "v", "base": "photo.ppm", "output": "v.png", "viewOutput": "screen.png",
        "view": {"width": 100, "height": 100}}]}
      """)
    _ = try BatchRunner(options: BatchOptions(outputFolder: w.path("out"))).run(try w.jobs("m.json"))
    let screen = try Pixels(w.path("out/screen.png"))
    let white = screen.centroid { Double($0[0]) }
    #expect(abs(white.x - 25) < 0.1 && abs(white.y - 62.5) < 0.1, "\(white.x), \(white.y)")
    #expect(abs(white.mass / 255 - 100) < 2)
  }
}
