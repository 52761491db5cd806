import Foundation
import StampBatch
import StampManifest
import StampTestFolders
import StampTestSupport
import Testing

@testable import StampRecord

@Suite("RecorderApp on a job over many photos: stepping, the script on each photo, Save and Render")
struct RecorderAppPhotosTests {
  static let access = RecorderAppTests.access
  static let request = RecorderAppTests.request

  /// A job `wm` over a portrait photo (`in/tall.png`, 400 x 800, dark red) and a landscape one (`in/wide/w.png`,
  /// 800 x 400, dark blue) on a 200 x 200 screen, its stamp (40 x 40 magenta) at the middle of each photo, a quarter
  /// of its width; a listed job before it, which a save must leave alone.
  static let manifest = """
    {"version": 1, "jobs": [
      {"id": "before", "base": "in/tall.png", "output": "before.png"},
      {"id": "wm", "photos": "in/**/*.png", "output": "out/{dir}/{stem}.png", "view": {"width": 200, "height": 200},
       "stamps": [{"id": "s", "image": "s.png", "photoCenter": [0.5, 0.5], "photoWidth": 0.25}]}]}

    """

  static func app(_ folder: TestFolder, job: String? = "wm") throws -> RecorderApp {
    try FileManager.default.createDirectory(atPath: folder.path("in/wide"), withIntermediateDirectories: true)
    try folder.ppm("in/tall.png", width: 400, height: 800, rgb: [120, 0, 0])
    try folder.ppm("in/wide/w.png", width: 800, height: 400, rgb: [0, 0, 120])
    try folder.ppm("s.png", width: 40, height: 40, rgb: [255, 0, 255])
    try folder.write("m.json", manifest)
    return try RecorderLaunch(manifest: folder.path("m.json"), job: job, newJob: nil, settings: .init()).open()
  }

  /// POSTs `json` to `path` as page `page`.
  static func post(_ app: RecorderApp, _ page: String, _ path: String, _ json: String)
    -> (status: Int, body: [String: Any])
  {
    let sent = json == "{}" ? "{\"page\": \"\(page)\"}" : "{\"page\": \"\(page)\", " + json.dropFirst()
    let answer = app.handle(request("POST", path, sent, "application/json"), guard: access)
    let body = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any] ?? [:]
    return (answer.status, body)
  }

  /// The stamp's centre (image pixels) and where it is on the screen (view points), from a state.
  static func stamp(_ state: [String: Any]) -> (center: [Double], at: [Double]) {
    let stamp = (state["stamps"] as? [[String: Any]])?.first ?? [:]
    return (stamp["center"] as? [Double] ?? [], stamp["at"] as? [Double] ?? [])
  }

  /// A one-finger drag of the stamp from the screen's middle by (24, 12) points, past the tap slop of 10.
  static let drag = """
    {"frames": [{"t": 1, "input": [{"pointer": 1, "phase": "began", "x": 100, "y": 100}]},
                {"t": 1.05, "input": [{"pointer": 1, "phase": "moved", "x": 112, "y": 106}]},
                {"t": 1.1, "input": [{"pointer": 1, "phase": "moved", "x": 124, "y": 112}]},
                {"t": 1.15, "input": [{"pointer": 1, "phase": "ended", "x": 124, "y": 112}]}]}
    """

  @Test func gesturesRecordedOnOnePhotoLandOnTheNextAtTheSameViewPoints() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    let app = try Self.app(folder)
    let page = try RecorderAppTests.openPage(app)
    #expect(
      (Self.post(app, page, "/api/photos", "{}").body["photo"] as? [String: Any])?["photo"] as? String == "tall.png")
    // The portrait photo, 400 x 800, on 200 x 200: fit 0.25, shown 100 x 200 with a 50-point bar at the left; its
    // middle (200, 400) is at (50 + 50, 100). The drag moves the stamp by (24, 12) / 0.25 = (96, 48) pixels.
    let first = Self.post(app, page, "/api/frames", Self.drag)
    #expect(first.status == 200)
    #expect(Self.stamp(first.body).center == [296, 448] && Self.stamp(first.body).at == [124, 112])
    // The landscape photo, 800 x 400: fit 0.25, shown 200 x 100 with a 50-point bar at the top; its middle
    // (400, 200) is at (100, 50 + 50), where the same touches begin: the stamp ends at (496, 248), at (124, 112).
    let second = Self.post(app, page, "/api/photo", "{\"index\": 1}")
    #expect(second.status == 200)
    let bar = second.body["photo"] as? [String: Any] ?? [:]
    #expect(bar["index"] as? Int == 1 && bar["count"] as? Int == 2 && bar["total"] as? Int == 2)
    #expect(bar["photo"] as? String == "wide/w.png" && bar["job"] as? String == "wm/wide/w.png")
    let state = second.body["state"] as? [String: Any] ?? [:]
    #expect(state["job"] as? String == "wm/wide/w.png" && state["items"] as? Int == 1)
    #expect(Self.stamp(state).center == [496, 248] && Self.stamp(state).at == [124, 112])
    // The page's frame count goes on across photos.
    #expect(state["frames"] as? Int == 4)
    // The photo served is now the landscape one.
    let wide = Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("in/wide/w.png"))))
    let photo = app.handle(Self.request("GET", "/photos/1", nil, nil), guard: Self.access)
    #expect(photo.status == 200 && photo.body == wide)
    // And back: the portrait photo shows the stamp where the drag left it.
    let back = Self.post(app, page, "/api/photo", "{\"index\": 0}")
    #expect(Self.stamp(back.body["state"] as? [String: Any] ?? [:]).center == [296, 448])
  }

  @Test func anIndexThatNamesNoPhotoIsRefusedAndNothingChanges() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    let app = try Self.app(folder)
    let page = try RecorderAppTests.openPage(app)
    let state = { app.handle(Self.request("GET", "/api/state", nil, nil), guard: Self.access).body }
    let before = state()
    let cases: [(String, Int, String)] = [
      ("{\"index\": 2}", 422, "there is no photo at index 2: its photos are 0 to 1"),
      ("{\"index\": -1}", 422, "there is no photo at index -1"),
      ("{\"index\": 1e300}", 400, "a whole number"),
      ("{\"index\": 0.5}", 400, "a whole number"),
      ("{\"index\": \"1\"}", 400, "a whole number"),
      ("{}", 400, "a whole number"),
    ]
    for (body, status, message) in cases {
      let answer = Self.post(app, page, "/api/photo", body)
      #expect(answer.status == status, "\(body)")
      #expect((answer.body["error"] as? String)?.contains(message) == true, "\(body): \(answer.body)")
    }
    // The endpoint is behind the same checks as every other: no token, another origin, another host.
    var foreign = Self.request("POST", "/api/photo", "{\"index\": 1}", "application/json")
    foreign.origin = "http://attacker.example"
    var rebound = Self.request("POST", "/api/photo", "{\"index\": 1}", "application/json")
    rebound.host = "attacker.example:9000"
    var tokenless = rebound
    (tokenless.host, tokenless.path) = ("127.0.0.1:9000", "/api/photo")
    #expect(app.handle(foreign, guard: Self.access).status == 403)
    #expect(app.handle(rebound, guard: Self.access).status == 421)
    #expect(app.handle(tokenless, guard: Self.access).status == 404)
    #expect(state() == before)
    // A finger down: the photo does not change under it.
    let down = "{\"frames\": [{\"t\": 1, \"input\": [{\"pointer\": 1, \"phase\": \"began\", \"x\": 10, \"y\": 10}]}]}"
    #expect(Self.post(app, page, "/api/frames", down).status == 200)
    #expect(Self.post(app, page, "/api/photo", "{\"index\": 1}").status == 409)
    let up = "{\"frames\": [{\"t\": 1.1, \"input\": [{\"pointer\": 1, \"phase\": \"ended\", \"x\": 10, \"y\": 10}]}]}"
    #expect(Self.post(app, page, "/api/frames", up).status == 200)
    #expect((Self.post(app, page, "/api/photos", "{}").body["photo"] as? [String: Any])?["index"] as? Int == 0)
    let photo = app.handle(Self.request("GET", "/photo", nil, nil), guard: Self.access)
    #expect(photo.body == Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("in/tall.png")))))
    // Another page opens on the first photo, whatever this one shows.
    let other = try RecorderAppTests.openPage(app)
    #expect((Self.post(app, other, "/api/photos", "{}").body["photo"] as? [String: Any])?["index"] as? Int == 0)
  }

  @Test func eachPhotoIsServedByItsIndexAndNoPathIsTaken() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    let app = try Self.app(folder)
    let get = { (path: String) in app.handle(Self.request("GET", path, nil, nil), guard: Self.access) }
    for (index, name) in [(0, "in/tall.png"), (1, "in/wide/w.png")] {
      let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder.path(name))))
      let answer = get("/photos/\(index)")
      #expect(answer.status == 200 && answer.contentType == "image/png" && answer.body == bytes, "\(index)")
    }
    let refused = [
      "/photos/2", "/photos/-1", "/photos/", "/photos/1e0", "/photos/+1", "/photos/../m.json", "/photos/tall.png",
      "/photos/99999999999999999999999",
    ]
    for path in refused {
      #expect(get(path).status == 404, "\(path)")
    }
    // A photo that cannot be read is refused by name when asked for.
    try folder.write("in/wide/w.png", "")
    let broken = get("/photos/1")
    #expect(broken.status == 422 && String(decoding: broken.body, as: UTF8.self).contains("wm/wide/w.png"))
  }

  @Test func aJobOfOnePhotoHasNoPhotosToStepTo() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    let app = try Self.app(folder, job: "before")
    let page = try RecorderAppTests.openPage(app)
    #expect(Self.post(app, page, "/api/photos", "{}").body["photo"] is NSNull)
    #expect(Self.post(app, page, "/api/photo", "{\"index\": 0}").status == 404)
    #expect(app.handle(Self.request("GET", "/photos/0", nil, nil), guard: Self.access).status == 404)
  }

  @Test func saveAfterSteppingWritesTheJobOnceAndTheManifestRendersWhatThePageRendered() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    let app = try Self.app(folder)
    let page = try RecorderAppTests.openPage(app)
    #expect(Self.post(app, page, "/api/frames", Self.drag).status == 200)
    // The page's Render of each photo, stepping to the second, then back to the first.
    var rendered: [String: [UInt8]] = [:]
    for (index, output) in [(1, "out/wide/w.png"), (0, "out/tall.png")] {
      #expect(Self.post(app, page, "/api/photo", "{\"index\": \(index)}").status == 200)
      #expect(Self.post(app, page, "/api/render", "{}").status == 200)
      rendered[output] = app.handle(Self.request("GET", "/render/output", nil, nil), guard: Self.access).body
    }
    let save = Self.post(app, page, "/api/save", "{}")
    #expect(save.status == 200 && save.body["items"] as? Int == 1)
    // The job as written, its gestures added once: its photos, output template and placement untouched, no job
    // made for a photo, the job before it as it was.
    let text = try String(contentsOfFile: folder.path("m.json"), encoding: .utf8)
    #expect(text.components(separatedBy: "\"gestures\"").count == 2)
    #expect(text.contains("\"photos\": \"in/**/*.png\", \"output\": \"out/{dir}/{stem}.png\""))
    #expect(text.contains("\"photoCenter\": [0.5, 0.5], \"photoWidth\": 0.25"))
    #expect(text.hasPrefix(Self.manifest.components(separatedBy: "\"stamps\"")[0]))
    #expect(!text.contains("wm/"))
    let jobs = try ManifestDecoder().decode(contentsOf: URL(fileURLWithPath: folder.path("m.json"))).jobs
    #expect(jobs.map(\.id) == ["before", "wm"])
    let touches = jobs.last?.gestures.first.flatMap { item -> Int? in
      if case .touches(let events) = item { return events.count }
      return nil
    }
    #expect(jobs.last?.gestures.count == 1 && touches == 4)
    // The saved manifest rendered as `stampcam render` renders it: each photo's output is the page's Render.
    let decoder = ManifestDecoder()
    var expansion = decoder.expanding(jobs.map { .success($0) }.makeIterator(), file: folder.path("m.json"))
    var made: [JobEntry] = []
    while let job = expansion.next() { made.append(try job.get()) }
    let out = folder.path("render")
    let outcomes = try BatchRunner(options: BatchOptions(outputFolder: out, concurrency: 1, maxPixels: 100_000_000))
      .run(made.filter { $0.photo != nil })
    #expect(outcomes.map(\.status) == [.ok, .ok])
    for (output, bytes) in rendered {
      let file = Array(try Data(contentsOf: URL(fileURLWithPath: out + "/" + output)))
      #expect(!bytes.isEmpty && file == bytes, "\(output)")
    }
    // The two renders differ: each is its own photo's.
    #expect(rendered["out/wide/w.png"] != rendered["out/tall.png"])
  }
}
