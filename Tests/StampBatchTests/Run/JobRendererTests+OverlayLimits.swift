import Foundation
import StampCore
import StampTestSupport
import Testing

@testable import StampBatch
@testable import StampRender

@Suite("Overlay limits: the overlay always renders, and never costs the main output")
struct OverlayLimitTests {
  /// One job with `overlay: true` and four pinches of 100,000 steps made an SVG of over 10 MB,
  /// which libxml2 refuses ("Premature end of data in tag svg"); the job failed, the main output was lost with it
  /// and the photo was blamed. Now both outputs are written.
  @Test func fourPinchesOfAHundredThousandStepsDrawTheirOverlay() throws {
    let w = try Workspace()
    defer { w.remove() }
    try w.ppm("photo.ppm", width: 800, height: 600, rgb: [0, 0, 0])
    let pinches = (0..<4).map { i in
      #"{"pinch": {"at": [\#(200 + 100 * i), 300], "scale": \#(i % 2 == 0 ? 2 : 0.5), "rotation": 90, "steps": 100000}}"#
    }
    let manifest =
      #"{"version": 1, "jobs": [{"id": "p", "base": "photo.ppm", "output": "p.png", "overlay": true, "gestures": ["#
      + pinches.joined(separator: ", ") + "]}]}"
    try w.write("m.json", manifest)
    let outcomes = try BatchRunner(options: BatchOptions(outputFolder: w.path("out"))).run(try w.jobs("m.json"))
    #expect(outcomes.first?.status == .ok, "\(outcomes.first?.error ?? "")")
    #expect(outcomes.first?.outputs == ["p.png", "p.overlay.png"])
    // The first pinch's fingers start 50 points either side of (200, 300) and are drawn: the first finger's
    // colour (#00e5ff) is somewhere, where the plain output is black.
    let overlay = try Pixels(w.path("out/p.overlay.png"))
    #expect(overlay.samples.count == 800 * 600 * 3)
    var cyan = 0
    for y in 0..<600 {
      for x in 0..<800 where overlay[x, y] == [0, 229, 255] { cyan += 1 }
    }
    #expect(cyan > 100, "finger paths drawn: \(cyan) cyan pixels")
  }

  /// Points closer than a pixel to the last kept one are dropped: along x at steps of 0.3 from 0 to 3, the kept
  /// points are 0, 1.2 (the first at least 1 from 0), 2.4 and the last, 3. Past the limit, evenly spaced points
  /// are kept, the first and last among them: 10 points (0...9 apart by 1) to 4 keep indices 0, 3, 6, 9.
  @Test func fingerPathsAreSimplified() {
    let fine = (0...10).map { StampPoint(Double($0) * 0.3, 5) }
    #expect(Overlay.simplified(fine).map(\.x) == [0, 1.2, 2.4, 3])
    let coarse = (0..<10).map { StampPoint(Double($0), 0) }
    #expect(Overlay.simplified(coarse, limit: 4).map(\.x) == [0, 3, 6, 9])
  }

  /// However many marks, the SVG stays under 8 MiB (libxml2 refuses 10 MB): 20,000 taps would take some
  /// 11 MB (a mark and three label texts, about 550 bytes each); what does not fit is counted in a note.
  @Test func theSVGStaysUnderItsLimit() {
    let taps = (0..<20_000).map {
      RecognizedGesture(kind: .tap, t: 0, at: StampPoint(Double($0 % 800), 300), target: nil)
    }
    let svg = Overlay(traces: [], gestures: taps, stamps: []).svg(width: 800, height: 600)
    #expect(svg.utf8.count <= 8 << 20 && svg.utf8.count > 7 << 20)
    #expect(svg.hasSuffix("</svg>") && svg.contains(" marks not drawn</text>"))
  }

  /// When the overlay fails anyway, the main output is still written and the error names the overlay.
  @Test func aFailingOverlayKeepsTheMainOutputAndIsBlamed() throws {
    let w = try Workspace()
    defer { w.remove() }
    try w.ppm("photo.ppm", width: 20, height: 10, rgb: [0, 0, 0])
    try w.write(
      "m.json",
      #"{"version": 1, "jobs": [{"id": "t", "base": "photo.ppm", "output": "t.png", "overlay": true, "gestures": [{"tap": {"at": [6, 4]}}]}]}"#
    )
    var renderer = try BatchRunner(options: BatchOptions(outputFolder: w.path("out"))).jobRenderer
    renderer.beforeOverlay = {
      throw RenderError.operation(path: "t.overlay.png", operation: "draw overlay", message: "no room")
    }
    #expect {
      _ = try renderer.render(try #require(try w.jobs("m.json").first))
    } throws: { error in
      "\(error)" == "t.overlay.png: draw overlay failed: no room"
    }
    #expect(w.files("out") == ["t.png"])
  }
}
