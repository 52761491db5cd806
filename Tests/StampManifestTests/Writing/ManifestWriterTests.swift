import StampCore
import Testing

@testable import StampManifest

@Suite("ManifestWriter: what an app records, as a manifest the batch reads back")
struct ManifestWriterTests {
  /// A job that uses every key the writer knows, with numbers that no short decimal holds.
  static let busy: JobEntry = {
    var settings = GestureSettings()
    settings.scaleRange = 0.25...3
    settings.zoomRange = 1...5
    settings.doubleTap = .step
    settings.zoomStep = 2
    settings.tapMaxDuration = 0.3
    settings.tapSlop = 8
    settings.pinchSlop = 0
    settings.doubleTapInterval = 0.3
    settings.doubleTapDistance = 30
    settings.pinchMoves = true
    settings.quality = 85
    let stamps = [
      StampEntry(id: "cam", image: "stamps/cam.png", center: StampPoint(100.5, 1.0 / 3)),
      StampEntry(
        id: "star", image: "stamps/star.png", center: StampPoint(10, 20), width: 64, scale: 1.25, rotation: -30.5,
        locked: true),
    ]
    let gestures: [GestureItem] = [
      .touches([
        TouchEvent(t: 0, id: 0, phase: .began, location: StampPoint(153.33333333333334, 370)),
        TouchEvent(t: 0.016865, id: 0, phase: .moved, location: StampPoint(160, 371.1)),
        TouchEvent(t: 0.1, id: 0, phase: .ended, location: StampPoint(160, 371.1)),
      ]),
      .tap(StampPoint(1, 2)), .doubleTap(StampPoint(3, 4)), .twoFingerTap(StampPoint(5, 6)),
      .pinch(PinchItem(target: .stamp("cam"), scale: 1.5, rotation: -25)),
      .pinch(PinchItem(target: .point(StampPoint(7, 8)), duration: 0.8, steps: 12)),
      .drag(DragItem(from: .stamp("star"), by: StampPoint(40, -35))),
      .drag(DragItem(from: .point(StampPoint(9, 10)), by: StampPoint(-1, 0), duration: 1, steps: 5)),
    ]
    var job = JobEntry(
      id: "busy", base: "photos/a b.jpg", output: "out/busy.png", viewOutput: "busy-screen.jpg",
      view: StampSize(390, 844), stamps: stamps, gestures: gestures, settings: settings)
    job.screenScale = 3
    job.overlay = true
    return job
  }()

  /// The jobs with `line` set to 1: where a job starts in a file is not part of the job.
  func withoutLines(_ jobs: [JobEntry]) -> [JobEntry] {
    jobs.map {
      var job = $0
      job.line = 1
      return job
    }
  }

  @Test("a JSON manifest decodes back to the very jobs written")
  func jsonRoundTrip() throws {
    var second = JobEntry(id: "plain", base: "p.jpg", output: "plain.jpg")
    second.index = 1
    let manifest = Manifest(jobs: [Self.busy, second])
    let text = ManifestWriter().json(manifest)
    let decoded = try ManifestDecoder().decode(Array(text.utf8), file: "m.json")
    #expect(withoutLines(decoded.jobs) == manifest.jobs)
  }

  @Test("a JSON Lines line holds one job on one line, and decodes back to it")
  func lineRoundTrip() throws {
    let line = ManifestWriter().jsonLine(Self.busy)
    #expect(!line.contains("\n"))
    let decoded = try ManifestDecoder().decode(Array("{\"version\": 1, \"jobs\": [\(line)]}".utf8), file: "m.json")
    #expect(withoutLines(decoded.jobs) == [Self.busy])
  }

  @Test("defaults are left out, and a value that does not fit in 120 columns opens one member per line")
  func layout() {
    let job = JobEntry(
      id: "a", base: "a.jpg", output: "a.jpg", stamps: [StampEntry(id: "s", image: "s.png", center: StampPoint(1, 2))],
      gestures: [.pinch(PinchItem(target: .stamp("s"), scale: 1.5))])
    // The job on one line would take 4 + 160 columns: it opens, and each of its members fits on a line.
    let expected = """
      {
        "version": 1,
        "jobs": [
          {
            "id": "a",
            "base": "a.jpg",
            "output": "a.jpg",
            "stamps": [{"id": "s", "image": "s.png", "center": [1, 2]}],
            "gestures": [{"pinch": {"on": "s", "scale": 1.5}}]
          }
        ]
      }

      """
    #expect(ManifestWriter().json(Manifest(jobs: [job])) == expected)
  }

  @Test("touches are exact by default, rounded as stampcam import rounds them on request")
  func touchPrecision() {
    let events = [TouchEvent(t: 0.0166666666, id: 1, phase: .began, location: StampPoint(153.33333333333334, -0.00001))]
    #expect(
      ManifestWriter().touchesItem(events)
        == "{\"touches\": [{\"t\": 0.0166666666, \"id\": 1, \"phase\": \"began\", \"x\": 153.33333333333334, "
        + "\"y\": -0.00001}]}")
    #expect(
      ManifestWriter(roundsTouches: true).touchesItem(events)
        == "{\"touches\": [{\"t\": 0.016667, \"id\": 1, \"phase\": \"began\", \"x\": 153.333, \"y\": 0}]}")
  }

  @Test("a name with quotes and a control character is escaped")
  func escaping() {
    let job = JobEntry(id: "q", base: "say \"hi\"\t.jpg", output: "q.jpg")
    #expect(ManifestWriter().jsonLine(job) == #"{"id": "q", "base": "say \"hi\"\t.jpg", "output": "q.jpg"}"#)
  }
}
