import Testing

@testable import StampManifest

/// Each kind of mistake in a job, alone on line 3 of `m.json`, and exactly what is reported.
struct ManifestWalkerTests {
  struct Case: CustomStringConvertible, Sendable {
    let name: String
    let job: String
    let expected: [String]
    var description: String { name }
  }

  static let s = #""stamps": [{"id": "s", "image": "s.png", "center": [1, 2]}]"#

  static let cases: [Case] = [
    Case(
      name: "unknown key with a suggestion",
      job: #"{"base": "a", "stamps": [{"id": 1, "image": "s", "centre": [1, 2]}]}"#,
      expected: [
        "jobs[0].stamps[0].centre: unknown key (did you mean \"center\"?)",
        "jobs[0].stamps[0]: needs \"center\" or \"photoCenter\"",
      ]),
    Case(
      name: "unknown key without a near one", job: #"{"base": "a", "colour": 1}"#,
      expected: [
        "jobs[0].colour: unknown key (expected one of: id, base, photos, output, viewOutput, view, stamps, gestures, settings,"
          + " overlay)"
      ]),
    Case(
      name: "setting at the job's top level", job: #"{"base": "a", "quality": 80}"#,
      expected: ["jobs[0].quality: unknown key (\"quality\" is a setting: put it under \"settings\")"]),
    Case(
      name: "odd key", job: #"{"base": "a", "my key": 1}"#,
      expected: [
        "jobs[0][\"my key\"]: unknown key (expected one of: id, base, photos, output, viewOutput, view, stamps, gestures, settings,"
          + " overlay)"
      ]),
    Case(name: "repeated key", job: #"{"base": "a", "base": "b"}"#, expected: ["jobs[0].base: duplicate key"]),
    Case(name: "missing key", job: #"{"id": "x"}"#, expected: ["jobs[0]: needs \"base\" or \"photos\""]),
    Case(name: "wrong type", job: #"{"base": ["a"]}"#, expected: ["jobs[0].base: expected a string, found an array"]),
    Case(name: "empty string", job: #"{"base": ""}"#, expected: ["jobs[0].base: must not be empty"]),
    Case(
      name: "fractional id", job: #"{"id": 1.5, "base": "a"}"#, expected: ["jobs[0].id: expected an integer, found 1.5"]
    ),
    Case(
      name: "non-finite number", job: #"{"base": "a", "view": {"width": 1e999, "height": 20}}"#,
      expected: ["jobs[0].view.width: must be a finite number"]),
    Case(
      name: "absurd coordinate", job: #"{"base": "a", "stamps": [{"id": "s", "image": "s", "center": [2e6, 0]}]}"#,
      expected: ["jobs[0].stamps[0].center[0]: 2000000 is too large (at most 1000000)"]),
    Case(
      name: "view output too large",
      job: #"{"base": "a", "viewOutput": "v.png", "view": {"width": 1e6, "height": 1e6, "screenScale": 16}}"#,
      expected: [
        "jobs[0].viewOutput: the view would be 16000000 x 16000000 pixels (its size times its screenScale), over "
          + "the limit of 100000000"
      ]),
    Case(
      name: "point of three", job: #"{"base": "a", "gestures": [{"tap": {"at": [1, 2, 3]}}]}"#,
      expected: ["jobs[0].gestures[0].tap.at: expected [x, y], found 3 items"]),
    Case(
      name: "scale zero", job: #"{"base": "a", "stamps": [{"id": "s", "image": "s", "center": [0, 0], "scale": 0}]}"#,
      expected: ["jobs[0].stamps[0].scale: 0 is too small (at least 0.001)"]),
    Case(
      name: "steps out of range", job: #"{"base": "a", "gestures": [{"pinch": {"at": [0, 0], "steps": 0}}]}"#,
      expected: ["jobs[0].gestures[0].pinch.steps: 0 is too small (at least 1)"]),
    Case(
      name: "duration zero",
      job: #"{"base": "a", "gestures": [{"drag": {"from": [0, 0], "by": [1, 1], "duration": 0}}]}"#,
      expected: ["jobs[0].gestures[0].drag.duration: 0 is too small (at least 0.001)"]),
    Case(
      name: "quality out of range", job: #"{"base": "a", "settings": {"quality": 101}}"#,
      expected: ["jobs[0].settings.quality: 101 is too large (at most 100)"]),
    Case(
      name: "range upside down", job: #"{"base": "a", "settings": {"scaleRange": [3, 2], "zoomRange": [0, 2]}}"#,
      expected: [
        "jobs[0].settings.scaleRange: min 3 is greater than max 2",
        "jobs[0].settings.zoomRange[0]: 0 is too small (at least 0.001)",
      ]),
    Case(
      name: "unknown double-tap mode", job: #"{"base": "a", "settings": {"doubleTap": "zoom"}}"#,
      expected: ["jobs[0].settings.doubleTap: unknown mode \"zoom\" (expected toggle or step)"]),
    Case(
      name: "unknown stamp id", job: #"{"base": "a", \#(s), "gestures": [{"drag": {"on": "t", "by": [1, 1]}}]}"#,
      expected: ["jobs[0].gestures[0].drag.on: unknown stamp \"t\" (this job's stamps: s)"]),
    Case(
      name: "duplicate stamp ids",
      job:
        #"{"base": "a", "stamps": [{"id": 1, "image": "s", "center": [0, 0]}, {"id": "1", "image": "t", "center": [0, 0]}]}"#,
      expected: ["jobs[0].stamps[1].id: duplicate stamp id \"1\""]),
    Case(
      name: "pinch with neither target", job: #"{"base": "a", "gestures": [{"pinch": {"scale": 2}}]}"#,
      expected: ["jobs[0].gestures[0].pinch: needs \"on\" or \"at\""]),
    Case(
      name: "drag with both targets",
      job: #"{"base": "a", \#(s), "gestures": [{"drag": {"on": "s", "from": [0, 0], "by": [1, 1]}}]}"#,
      expected: ["jobs[0].gestures[0].drag: give \"on\" or \"from\", not both"]),
    Case(
      name: "gesture with no key", job: #"{"base": "a", "gestures": [{}]}"#,
      expected: [
        "jobs[0].gestures[0]: a gesture needs exactly one key (touches, tap, doubleTap, twoFingerTap, pinch, drag), found none"
      ]),
    Case(
      name: "gesture with two keys", job: #"{"base": "a", "gestures": [{"tap": {"at": [0, 0]}, "drag": {}}]}"#,
      expected: [
        "jobs[0].gestures[0]: a gesture needs exactly one key (touches, tap, doubleTap, twoFingerTap, pinch, drag), found 2: tap, drag"
      ]),
    Case(
      name: "misspelt gesture", job: #"{"base": "a", "gestures": [{"tapp": {"at": [0, 0]}}]}"#,
      expected: ["jobs[0].gestures[0].tapp: unknown gesture (did you mean \"tap\"?)"]),
    Case(
      name: "unknown phase",
      job: #"{"base": "a", "gestures": [{"touches": [{"t": 0, "id": 1, "phase": "begin", "x": 0, "y": 0}]}]}"#,
      expected: [
        "jobs[0].gestures[0].touches[0].phase: unknown phase \"begin\" (expected began, moved, stationary, ended or cancelled)"
      ]),
    Case(
      name: "touch missing a key and with a stray one",
      job: #"{"base": "a", "gestures": [{"touches": [{"t": 0, "id": 1, "phase": "began", "x": 0, "z": 0}]}]}"#,
      expected: [
        "jobs[0].gestures[0].touches[0].z: unknown key (expected one of: t, id, phase, x, y)",
        "jobs[0].gestures[0].touches[0]: missing key \"y\"",
      ]),
    Case(
      name: "time goes backwards",
      job:
        #"{"base": "a", "gestures": [{"touches": [{"t": 0.6, "id": 1, "phase": "began", "x": 0, "y": 0}, {"t": 0.52, "id": 1, "phase": "ended", "x": 0, "y": 0}]}]}"#,
      expected: ["jobs[0].gestures[0].touches[1].t: time goes backwards (0.52 after 0.60)"]),
    Case(
      name: "touch ends without beginning",
      job: #"{"base": "a", "gestures": [{"touches": [{"t": 0, "id": 4, "phase": "ended", "x": 0, "y": 0}]}]}"#,
      expected: ["jobs[0].gestures[0].touches[0].phase: touch 4 ends before it begins"]),
    Case(
      name: "absolute output", job: #"{"base": "a", "output": "/etc/x.jpg"}"#,
      expected: ["jobs[0].output: must be relative to --out, not absolute (\"/etc/x.jpg\")"]),
    Case(
      name: "output climbing out", job: #"{"base": "a", "viewOutput": "a/../../x.jpg"}"#,
      expected: ["jobs[0].viewOutput: must not contain a '..' component (outputs stay under --out)"]),
    Case(
      name: "output naming a folder", job: #"{"base": "a", "output": "views/"}"#,
      expected: ["jobs[0].output: must name a file, not a folder"]),
    Case(
      name: "id that makes an unsafe default output", job: #"{"id": "../x", "base": "a"}"#,
      expected: [
        "jobs[0].id: the default output \"../x.jpg\" must not contain a '..' component (outputs stay under --out); give an output"
      ]),
  ]

  @Test(arguments: cases)
  func eachMistakeIsReportedWithPathLineAndWords(_ c: Case) {
    #expect(problems(job: c.job) == c.expected.map { "m.json:3: " + $0 })
  }

  @Test func problemsPointAtTheLineOfTheValue() {
    let manifest = """
      {"version": 1, "jobs": [
        {"base": "a.jpg",
         "stamps": [
           {"id": "s", "image": "s.png",
            "center": [1, "2"]}]}]}
      """
    #expect(
      problems(manifest: manifest) == ["m.json:5: jobs[0].stamps[0].center[1]: expected a number, found a string"])
  }
}
