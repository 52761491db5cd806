import Foundation
import StampCore
import StampManifest
import Testing

@testable import StampBatch

@Suite("explain: the JSON shape and its numbers")
struct ExplainerTests {
  /// A 400 x 300 photo on a 200 x 300 view (fit 0.5, content 200 x 150, bars of 75 points above and below): a stamp
  /// 20 points wide at view (100, 150) is 40 x 20 pixels (the stamp image is 2:1) at image (200, 150). A double tap
  /// at view (50, 150) toggles the zoom to 4 about image (100, 150): the view then shows 100 x 150 image pixels
  /// centred there, (50, 75, 100, 150).
  @Test func explainPrintsExactlyTheDocumentedShape() throws {
    let w = try Workspace()
    defer { w.remove() }
    try w.ppm("photo.ppm", width: 400, height: 300, rgb: [0, 0, 0])
    try w.ppm("stamp.ppm", width: 8, height: 4, rgb: [1, 1, 1])
    try w.write(
      "m.json",
      """
      {"version": 1, "jobs": [{"id": "e", "base": "photo.ppm", "view": {"width": 200, "height": 300},
        "stamps": [{"id": "s", "image": "stamp.ppm", "center": [100, 150], "width": 20, "rotation": -30}],
        "gestures": [{"doubleTap": {"at": [50, 150]}}]}]}
      """)
    let text = Explainer().explain(try w.jobs("m.json")).json
    let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(Array(root.keys) == ["jobs"])
    let job = try #require((root["jobs"] as? [[String: Any]])?.first)
    #expect(Set(job.keys) == ["id", "gestures", "stamps", "viewport"])
    #expect(job["id"] as? String == "e")
    let gesture = try #require((job["gestures"] as? [[String: Any]])?.first)
    #expect(Set(gesture.keys) == ["kind", "t", "at", "target"])
    #expect(gesture["kind"] as? String == "doubleTap" && gesture["target"] as? String == "viewport")
    #expect(gesture["at"] as? [Double] == [100, 150])
    let stamp = try #require((job["stamps"] as? [[String: Any]])?.first)
    #expect(Set(stamp.keys) == ["id", "center", "size", "scale", "rotation"])
    #expect(stamp["center"] as? [Double] == [200, 150] && stamp["size"] as? [Double] == [40, 20])
    #expect(stamp["scale"] as? Double == 1 && stamp["rotation"] as? Double == -30)
    let viewport = try #require(job["viewport"] as? [String: Any])
    #expect(Set(viewport.keys) == ["zoom", "visible"])
    #expect(viewport["zoom"] as? Double == 4)
    #expect(viewport["visible"] as? [Double] == [50, 75, 100, 150])
  }

  /// explain reads headers only: a JPEG cut short after its header still explains (its pixels would fail to
  /// decode), with the size the header gives.
  @Test func explainNeverDecodesThePhoto() throws {
    let w = try Workspace()
    defer { w.remove() }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent()
    let photo = try Data(contentsOf: root.appendingPathComponent("Examples/photos/sunset.jpg"))
    try photo.prefix(4096).write(to: URL(fileURLWithPath: w.path("cut.jpg")))
    try w.write("m.json", #"{"version": 1, "jobs": [{"id": "c", "base": "cut.jpg"}]}"#)
    let text = Explainer().explain(try w.jobs("m.json")).json
    #expect(text.contains("\"visible\": [0, 0, 1200, 800]"), "\(text)")
  }

  /// A stamp 1e303 pixels off the photo (what a 1e-300 zoom made of it) was printed as `-inf`, which is not JSON:
  /// the writer multiplied by a million before rounding. Every number explain prints now reads back.
  @Test func hugeCoordinatesArePrintedAsJSONNumbers() throws {
    let stamp = PlacedStamp(id: "s", center: StampPoint(-1e303, 4e302), size: StampSize(1, 1), scale: 1, rotation: 0)
    let viewport = ViewportState(
      zoom: 1e-300, visible: StampRect(x: -5e302, y: 0, width: 1e303, height: 7.5e302), viewSize: StampSize(1000, 750))
    let text = SceneJSON.describe("j", SceneResult(stamps: [stamp], viewport: viewport, gestures: [])).inline
    let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    let placed = try #require((root["stamps"] as? [[String: Any]])?.first)
    #expect(placed["center"] as? [Double] == [-1e303, 4e302])
    #expect((root["viewport"] as? [String: Any])?["zoom"] as? Double == 0)
  }
}
