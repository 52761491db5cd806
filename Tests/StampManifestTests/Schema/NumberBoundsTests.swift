import StampCore
import Testing

@testable import StampManifest

/// Absurd numbers in every numeric field of a manifest: each gives a clear error, or decodes and replays to a
/// finite scene; none reaches a trap (which would take this test process down).
@Suite struct NumberBoundsTests {
  /// One numeric field: `shape.key` as `Shapes` names it, and a job with `X` where its value goes.
  struct Field: Sendable, CustomStringConvertible {
    var name: String
    var job: String
    var description: String { name }

    init(_ name: String, _ job: String) {
      self.name = name
      self.job = job
    }
  }

  static let stamp = #"{"id": "s", "image": "s.png", "center": [100, 80]}"#
  static let fields = [
    Field("view.width", #"{"base": "b", "view": {"width": X, "height": 400}}"#),
    Field("view.height", #"{"base": "b", "view": {"width": 300, "height": X}}"#),
    Field("view.screenScale", #"{"base": "b", "view": {"width": 300, "height": 400, "screenScale": X}}"#),
    Field("settings.scaleRange", #"{"base": "b", "settings": {"scaleRange": [X, X]}}"#),
    Field("settings.zoomRange", #"{"base": "b", "settings": {"zoomRange": [X, X]}}"#),
    Field("settings.zoomStep", #"{"base": "b", "settings": {"zoomStep": X}}"#),
    Field("settings.tapMaxDuration", #"{"base": "b", "settings": {"tapMaxDuration": X}}"#),
    Field("settings.tapSlop", #"{"base": "b", "settings": {"tapSlop": X}}"#),
    Field("settings.pinchSlop", #"{"base": "b", "settings": {"pinchSlop": X}}"#),
    Field("settings.doubleTapInterval", #"{"base": "b", "settings": {"doubleTapInterval": X}}"#),
    Field("settings.doubleTapDistance", #"{"base": "b", "settings": {"doubleTapDistance": X}}"#),
    Field("settings.quality", #"{"base": "b", "settings": {"quality": X}}"#),
    Field("stamp.center", #"{"base": "b", "stamps": [{"id": "s", "image": "s.png", "center": [X, X]}]}"#),
    Field("stamp.width", #"{"base": "b", "stamps": [{"id": "s", "image": "s.png", "center": [1, 1], "width": X}]}"#),
    Field("stamp.photoCenter", #"{"base": "b", "stamps": [{"id": "s", "image": "s.png", "photoCenter": [X, X]}]}"#),
    Field(
      "stamp.photoWidth",
      #"{"base": "b", "stamps": [{"id": "s", "image": "s.png", "center": [1, 1], "photoWidth": X}]}"#),
    Field("stamp.scale", #"{"base": "b", "stamps": [{"id": "s", "image": "s.png", "center": [1, 1], "scale": X}]}"#),
    Field(
      "stamp.rotation", #"{"base": "b", "stamps": [{"id": "s", "image": "s.png", "center": [1, 1], "rotation": X}]}"#),
    Field("tapAt.at", #"{"base": "b", "gestures": [{"tap": {"at": [X, X]}}, {"doubleTap": {"at": [X, 1]}}]}"#),
    Field("pinch.at", #"{"base": "b", "gestures": [{"pinch": {"at": [X, X]}}]}"#),
    Field("pinch.scale", #"{"base": "b", "stamps": [\#(stamp)], "gestures": [{"pinch": {"on": "s", "scale": X}}]}"#),
    Field(
      "pinch.rotation", #"{"base": "b", "stamps": [\#(stamp)], "gestures": [{"pinch": {"on": "s", "rotation": X}}]}"#),
    Field("pinch.duration", #"{"base": "b", "gestures": [{"pinch": {"at": [9, 9], "duration": X}}]}"#),
    Field("pinch.steps", #"{"base": "b", "gestures": [{"pinch": {"at": [9, 9], "steps": X}}]}"#),
    Field("drag.from", #"{"base": "b", "gestures": [{"drag": {"from": [X, X], "by": [1, 1]}}]}"#),
    Field("drag.by", #"{"base": "b", "stamps": [\#(stamp)], "gestures": [{"drag": {"on": "s", "by": [X, X]}}]}"#),
    Field("drag.duration", #"{"base": "b", "gestures": [{"drag": {"from": [9, 9], "by": [1, 1], "duration": X}}]}"#),
    Field("drag.steps", #"{"base": "b", "gestures": [{"drag": {"from": [9, 9], "by": [1, 1], "steps": X}}]}"#),
    Field(
      "touch.t",
      #"{"base": "b", "gestures": [{"touches": [{"t": X, "id": 1, "phase": "began", "x": 5, "y": 5}]}]}"#),
    Field(
      "touch.id",
      #"{"base": "b", "gestures": [{"touches": [{"t": 0, "id": X, "phase": "began", "x": 5, "y": 5}]}]}"#),
    Field(
      "touch.x",
      #"{"base": "b", "gestures": [{"touches": [{"t": 0, "id": 1, "phase": "began", "x": X, "y": X}]}]}"#),
    Field(
      "touch.y",
      #"{"base": "b", "gestures": [{"touches": [{"t": 0, "id": 1, "phase": "began", "x": 5, "y": X}]}]}"#),
  ]

  @Test(arguments: fields, ["1e308", "-1e308", "1e-300", "-1e-300", "0", "9e15"])
  func anAbsurdNumberIsAnErrorOrAFiniteScene(_ field: Field, _ value: String) throws {
    let text = "{\"version\": 1, \"jobs\": [" + field.job.replacing("X", with: value) + "]}"
    let manifest: Manifest
    do {
      manifest = try ManifestDecoder().decode(Array(text.utf8), file: "m.json")
    } catch {
      // Rejected: the message names the field's place and is not a type dump.
      let messages = error.diagnostics.map(\.description)
      #expect(!messages.isEmpty && messages.allSatisfy { $0.hasPrefix("m.json:1: jobs[0].") })
      return
    }
    let job = try #require(manifest.jobs.first)
    let spec = try job.scene(imageSize: StampSize(4000, 3000), stampPixelSizes: ["s.png": StampSize(100, 50)])
    guard let scene = try? StampCore.replay(spec) else { return }
    for stamp in scene.stamps {
      let numbers = [stamp.center.x, stamp.center.y, stamp.size.width, stamp.size.height, stamp.scale, stamp.rotation]
      #expect(numbers.allSatisfy { $0.isFinite })
    }
    let visible = scene.viewport.visible
    #expect([visible.origin.x, visible.origin.y, visible.size.width, visible.size.height].allSatisfy { $0.isFinite })
  }

  /// The table above names every numeric field `Shapes` has, so a new one cannot be left out.
  @Test func theTableCoversEveryNumericField() {
    var numeric: Set<String> = []
    for shape in Shapes.all {
      for field in shape.fields {
        switch field.type {
        case .number, .integer, .point, .range: numeric.insert("\(shape.name).\(field.name)")
        default: break
        }
      }
    }
    #expect(numeric.subtracting(Self.fields.map(\.name)) == [])
  }

  /// The issue's reproduction: a 1e-300 zoom range and stamp width validated, then trapped in render.
  @Test func aZoomRangeAndAWidthOf1eMinus300AreTooSmall() {
    let job = #"""
      {"base": "b", "settings": {"zoomRange": [1e-300, 1e-300]},
       "stamps": [{"id": "s", "image": "s.png", "center": [1, 1], "width": 1e-300}]}
      """#
    #expect(
      problems(job: job) == [
        "m.json:3: jobs[0].settings.zoomRange[0]: 1e-300 is too small (at least 0.001)",
        "m.json:3: jobs[0].settings.zoomRange[1]: 1e-300 is too small (at least 0.001)",
        "m.json:4: jobs[0].stamps[0].width: 1e-300 is too small (at least 0.001)",
      ])
  }

  /// The most extreme manifest the bounds allow: the smallest view over the largest zoom-out, a stamp as wide as
  /// allowed at the farthest point. Fit is 16 / 4000 and zoom 0.001, so a view point is 250,000 pixels and
  /// the stamp would be 2.5e11 pixels across: the replay refuses it rather than handing the renderer such numbers.
  @Test func theExtremesTogetherGiveAClearReplayError() throws {
    let job = #"""
      {"base": "b", "view": {"width": 16, "height": 16}, "settings": {"zoomRange": [0.001, 0.001]},
       "stamps": [{"id": "s", "image": "s.png", "center": [1e6, -1e6], "width": 1e6}]}
      """#
    let manifest = try ManifestDecoder().decode(Array("{\"version\": 1, \"jobs\": [\(job)]}".utf8), file: "m.json")
    let spec = try #require(manifest.jobs.first).scene(
      imageSize: StampSize(4000, 3000), stampPixelSizes: ["s.png": StampSize(100, 50)])
    let error = #expect(throws: ReplayError.self) { try StampCore.replay(spec) }
    let message = error.map { "\($0)" } ?? ""
    #expect(
      message.hasPrefix("stamps[0]: it would be ")
        && message.hasSuffix(" pixels across, over the limit of 1000000 (check its width and scale)"))
  }
}
