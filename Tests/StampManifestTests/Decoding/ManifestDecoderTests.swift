import StampCore
import Testing

@testable import StampManifest

/// Decodes `{"version": 1, "jobs": [JOB]}` with the job alone on line 3; returns every diagnostic's description.
func problems(job: String, limits: Limits = Limits()) -> [String] {
  problems(manifest: "{\"version\": 1,\n\"jobs\": [\n\(job)\n]}", limits: limits)
}

/// Decodes a manifest held in a string as `m.json`; returns every diagnostic's description.
func problems(manifest: String, limits: Limits = Limits()) -> [String] {
  do {
    _ = try ManifestDecoder(limits: limits).decode(Array(manifest.utf8), file: "m.json")
    return []
  } catch {
    return error.diagnostics.map(\.description)
  }
}

struct ManifestDecoderTests {
  static let good = """
    {
      "version": 1,
      "defaults": {"view": {"width": 390, "height": 844}, "settings": {"quality": 80, "zoomRange": [1, 3]}},
      "jobs": [
        {
          "id": "a", "base": "photos/a.jpg", "output": "out/./a.png", "viewOutput": "views/a.png",
          "stamps": [
            {"id": "cam", "image": "stamps/cam.png", "center": [100, 200], "width": 120, "scale": 1.5,
             "rotation": -12, "locked": true},
            {"id": 7, "image": "/abs/star.png", "center": [-5, 0.5]}
          ],
          "gestures": [
            {"touches": [{"t": 0, "id": 1, "phase": "began", "x": 10, "y": 20},
                         {"t": 0.1, "id": 1, "phase": "ended", "x": 10, "y": 20}]},
            {"tap": {"at": [1, 2]}}, {"doubleTap": {"at": [3, 4]}}, {"twoFingerTap": {"at": [5, 6]}},
            {"pinch": {"on": "cam", "scale": 1.5, "rotation": 30, "duration": 1, "steps": 10}},
            {"pinch": {"at": [7, 8]}},
            {"drag": {"on": 7, "by": [10, -20], "duration": 2, "steps": 5}},
            {"drag": {"from": [9, 9], "by": [1, 1]}}
          ],
          "settings": {"scaleRange": [0.25, 4], "doubleTap": "step", "zoomStep": 2, "tapMaxDuration": 0.4,
            "tapSlop": 12, "pinchSlop": 6.5, "doubleTapInterval": 0.3, "doubleTapDistance": 30, "quality": 95}
        },
        {"base": "b.jpg", "view": {"width": 100, "height": 50}}
      ]
    }
    """

  @Test func aGoodManifestDecodesToTheExactValues() throws {
    let manifest = try ManifestDecoder().decode(Array(Self.good.utf8), file: "m.json", folder: "shots")
    #expect(manifest.jobs.count == 2)
    let a = manifest.jobs[0]
    #expect(a.id == "a" && a.index == 0 && a.line == 5)
    #expect(a.base == "shots/photos/a.jpg" && a.output == "out/a.png" && a.viewOutput == "views/a.png")
    #expect(a.view == StampSize(390, 844))
    #expect(
      a.stamps == [
        StampEntry(
          id: "cam", image: "shots/stamps/cam.png", center: StampPoint(100, 200), width: 120, scale: 1.5, rotation: -12,
          locked: true),
        StampEntry(id: "7", image: "/abs/star.png", center: StampPoint(-5, 0.5)),
      ])
    #expect(
      a.gestures == [
        .touches([
          TouchEvent(t: 0, id: 1, phase: .began, location: StampPoint(10, 20)),
          TouchEvent(t: 0.1, id: 1, phase: .ended, location: StampPoint(10, 20)),
        ]),
        .tap(StampPoint(1, 2)), .doubleTap(StampPoint(3, 4)), .twoFingerTap(StampPoint(5, 6)),
        .pinch(PinchItem(target: .stamp("cam"), scale: 1.5, rotation: 30, duration: 1, steps: 10)),
        .pinch(PinchItem(target: .point(StampPoint(7, 8)), scale: 1, rotation: 0, duration: 0.5, steps: 30)),
        .drag(DragItem(from: .stamp("7"), by: StampPoint(10, -20), duration: 2, steps: 5)),
        .drag(DragItem(from: .point(StampPoint(9, 9)), by: StampPoint(1, 1), duration: 0.5, steps: 20)),
      ])
    var settings = GestureSettings()
    settings.scaleRange = 0.25...4
    settings.zoomRange = 1...3
    settings.doubleTap = .step
    settings.zoomStep = 2
    settings.tapMaxDuration = 0.4
    settings.tapSlop = 12
    settings.pinchSlop = 6.5
    settings.doubleTapInterval = 0.3
    settings.doubleTapDistance = 30
    settings.quality = 95
    #expect(a.settings == settings)
  }

  /// `view.screenScale` is the screen's pixels per point for viewOutput: 1 unless given, from the job's view or
  /// the defaults' view, and it must be positive.
  @Test func screenScaleComesWithTheView() throws {
    let manifest = """
      {"version": 1, "defaults": {"view": {"width": 390, "height": 844, "screenScale": 3}},
       "jobs": [{"base": "a.jpg"}, {"base": "b.jpg", "view": {"width": 20, "height": 20}}]}
      """
    let jobs = try ManifestDecoder().decode(Array(manifest.utf8), file: "m.json").jobs
    #expect(jobs[0].screenScale == 3 && jobs[0].view == StampSize(390, 844))
    #expect(jobs[1].screenScale == 1)
    #expect(
      problems(job: #"{"base": "a.jpg", "view": {"width": 20, "height": 20, "screenScale": 0}}"#).first?
        .contains("jobs[0].view.screenScale") == true)
  }

  @Test func defaultsFillWhatAJobLeavesOut() throws {
    let b = try ManifestDecoder().decode(Array(Self.good.utf8), file: "m.json").jobs[1]
    #expect(b.id == "1" && b.output == "1.jpg" && b.viewOutput == nil && b.base == "b.jpg" && b.line == 24)
    #expect(b.view == StampSize(100, 50), "a job's view replaces the default view")
    var settings = GestureSettings()
    settings.quality = 80
    settings.zoomRange = 1...3
    #expect(b.settings == settings, "settings merge key by key over the design's defaults")
    #expect(b.stamps.isEmpty && b.gestures.isEmpty)
  }

  /// `pinchMoves` comes from the defaults and each job like every setting, and the job's replay (what render and
  /// explain run) follows it: the pinch of `ManipulationTests`, its midpoint moved by (30, -12) points at fit 0.5
  /// (a 1000 x 800 photo on a 500 x 400 view), moves the stamp from image (500, 400) to (560, 376) only where set.
  @Test func pinchMovesComesFromTheDefaultsAndEachJobAndTheReplayFollowsIt() throws {
    let touches = #"""
      "gestures": [{"touches": [
        {"t": 0, "id": 1, "phase": "began", "x": 220, "y": 200}, {"t": 0, "id": 2, "phase": "began", "x": 280, "y": 200},
        {"t": 0.1, "id": 1, "phase": "moved", "x": 235, "y": 188}, {"t": 0.1, "id": 2, "phase": "moved", "x": 325, "y": 188},
        {"t": 0.2, "id": 1, "phase": "ended", "x": 235, "y": 188}, {"t": 0.2, "id": 2, "phase": "ended", "x": 325, "y": 188}]}]
      """#
    let stamp = #""stamps": [{"id": "s", "image": "s.png", "center": [250, 200], "width": 100}]"#
    let manifest = """
      {"version": 1, "defaults": {"view": {"width": 500, "height": 400}, "settings": {"pinchMoves": true}}, "jobs": [
        {"id": "moves", "base": "a.jpg", \(stamp), \(touches)},
        {"id": "fixed", "base": "a.jpg", "settings": {"pinchMoves": false}, \(stamp), \(touches)}]}
      """
    let jobs = try ManifestDecoder().decode(Array(manifest.utf8), file: "m.json").jobs
    #expect(jobs.map(\.settings.pinchMoves) == [true, false])
    let centres = try jobs.map { job in
      try StampCore.replay(
        job.scene(imageSize: StampSize(1000, 800), stampPixelSizes: ["s.png": StampSize(64, 64)])
      ).stamps[0].center
    }
    #expect(centres == [StampPoint(560, 376), StampPoint(500, 400)])
    #expect(
      problems(job: #"{"base": "a.jpg", "settings": {"pinchMoves": "yes"}}"#).first?
        .contains("jobs[0].settings.pinchMoves: expected true or false") == true)
  }

  @Test func theBundledExampleDecodes() throws {
    let text = """
      {"version": 1, "defaults": { "settings": { "quality": 90 } }, "jobs": [
        {"id": "dragonfly", "base": "photos/dragonfly.jpg", "output": "dragonfly.jpg", "stamps": [
          { "id": "camera", "image": "stamps/camera.png", "center": [930, 190], "width": 220, "rotation": -12 }]}]}
      """
    let job = try #require(try ManifestDecoder().decode(Array(text.utf8), file: "m.json").jobs.first)
    #expect(job.settings.quality == 90 && job.stamps.first?.width == 220)
  }

  @Test func everyErrorIsReportedAtOnceInDocumentOrder() {
    let manifest = """
      {"version": 1,
       "defaults": {"settings": {"quality": 0}},
       "jobs": [
        {"base": "a.jpg", "stamps": [{"id": "s", "image": "s.png", "centre": [1, 2]}]},
        {"base": 3, "gestures": [{"pinch": {"on": "nope"}}]},
        {"id": "0", "base": "c.jpg", "output": "/tmp/c.jpg"}
       ]}
      """
    #expect(
      problems(manifest: manifest) == [
        "m.json:2: defaults.settings.quality: 0 is too small (at least 1)",
        "m.json:4: jobs[0].stamps[0].centre: unknown key (did you mean \"center\"?)",
        "m.json:4: jobs[0].stamps[0]: needs \"center\" or \"photoCenter\"",
        "m.json:5: jobs[1].base: expected a string, found a number",
        "m.json:5: jobs[1].gestures[0].pinch.on: unknown stamp \"nope\" (this job has no stamps)",
        "m.json:6: jobs[2].output: must be relative to --out, not absolute (\"/tmp/c.jpg\")",
        "m.json:6: jobs[2].id: duplicate job id \"0\" (also jobs[0])",
      ])
  }

  @Test func duplicateOutputsAreCaught() {
    let manifest = """
      {"version": 1, "jobs": [
        {"id": "x", "base": "a.jpg", "output": "same.jpg"},
        {"base": "b.jpg", "output": "./same.jpg", "viewOutput": "v.png"},
        {"base": "c.jpg", "output": "c.jpg", "viewOutput": "c.jpg"}
      ]}
      """
    #expect(
      problems(manifest: manifest) == [
        "m.json:3: jobs[1].output: \"same.jpg\" of job \"1\" is also written by jobs[0] (job \"x\"): the same file",
        "m.json:4: jobs[2].viewOutput: \"c.jpg\" is also this job's output",
      ])
  }

  @Test func unsupportedVersionStopsTheCheck() {
    #expect(
      problems(manifest: "{\"version\": 2, \"jobs\": [{\"bogus\": 1}]}") == [
        "m.json:1: version: unsupported version 2 (this stampcam reads version 1)"
      ])
    #expect(
      problems(manifest: "{\"jobs\": []}") == ["m.json:1: missing key \"version\""])
  }

  @Test func invalidJSONNamesLineAndColumn() {
    #expect(
      problems(manifest: "{\"version\": 1,\n \"jobs\": [\n  {\"base\": \"a.jpg\",}]}") == [
        "m.json:3:20: invalid json: expected a string key, found '}'"
      ])
  }

  @Test func limitsOnStampsAndTouchEvents() {
    let limits = Limits(maxStamps: 1, maxTouchEvents: 3)
    let stamps = #"{"base": "a.jpg", "stamps": [{"id": 1, "image": "s", "center": [0, 0]}, {}]}"#
    #expect(problems(job: stamps, limits: limits) == ["m.json:3: jobs[0].stamps: 2 stamps, more than the limit of 1"])
    let taps = #"{"base": "a.jpg", "gestures": [{"tap": {"at": [0, 0]}}, {"tap": {"at": [0, 0]}}]}"#
    #expect(
      problems(job: taps, limits: limits) == [
        "m.json:3: jobs[0].gestures[1]: more than 3 touch events in this job (the limit)"
      ])
  }

  @Test func aJobThatIsNotAnObject() {
    #expect(problems(job: "[1]") == ["m.json:3: jobs[0]: expected an object, found an array"])
  }
}
