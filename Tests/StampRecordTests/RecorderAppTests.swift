import Foundation
import StampManifest
import StampTestFolders
import StampTestSupport
import Testing

@testable import StampRecord

@Suite("RecorderApp: what the page may ask, and what is refused before it reaches the recording")
struct RecorderAppTests {
  static let token = "00112233445566778899aabbccddeeff"
  static let access = AccessGuard(token: token, port: 9000)

  /// A recorder on a 100 x 50 photo with one 10 x 10 stamp, in a manifest of one job.
  static func app(_ folder: TestFolder) throws -> (RecorderApp, String) {
    try folder.jpeg("p.jpg", width: 100, height: 50, rgb: [10, 20, 30])
    try folder.ppm("s.png", width: 10, height: 10, rgb: [255, 0, 255])
    let text = """
      {"version": 1, "jobs": [{"id": "j", "base": "p.jpg", "output": "j.png",
        "stamps": [{"id": "s", "image": "s.png", "center": [20, 10]}]}]}

      """
    _ = try folder.write("m.json", text)
    let launch = RecorderLaunch(
      manifest: folder.path("m.json"), job: nil, newJob: nil, settings: RecorderApp.Settings())
    return (try launch.open(), text)
  }

  static func request(_ method: String, _ path: String, json: String? = nil, type: String? = "application/json")
    -> HTTPRequest
  {
    HTTPRequest(
      method: method, path: "/\(token)\(path)", host: "127.0.0.1:9000", origin: "http://127.0.0.1:9000",
      contentType: json == nil ? nil : type, body: Array((json ?? "").utf8))
  }

  /// Opens a page on `app`; its id.
  static func openPage(_ app: RecorderApp, resume: String? = nil) throws -> String {
    let body = resume.map { "{\"t\": 1, \"resume\": \"\($0)\"}" } ?? "{\"t\": 1}"
    let answer = app.handle(request("POST", "/api/page", json: body), guard: access)
    let state = try JSONParser().parse(answer.body, file: "state")
    guard answer.status == 200, case .string(let id)? = state["page"]?.kind else {
      throw RecordError.manifest("no page: \(String(decoding: answer.body, as: UTF8.self))")
    }
    return id
  }

  /// The stamps' centres in page `id`'s state.
  static func centres(_ app: RecorderApp, page id: String) throws -> [[Double]] {
    let answer = app.handle(request("GET", "/api/state/\(id)"), guard: access)
    let state = try JSONParser().parse(answer.body, file: "state")
    guard case .array(let stamps)? = state["stamps"]?.kind else { return [] }
    return stamps.map { stamp in
      guard case .array(let pair)? = stamp["center"]?.kind else { return [] }
      return pair.compactMap { if case .number(let v) = $0.kind { v } else { nil } }
    }
  }

  @Test func thePageThePhotoAndTheStampsAreServedByPlaceAndNothingElse() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    let (app, _) = try Self.app(folder)
    let page = app.handle(Self.request("GET", "/"), guard: Self.access)
    #expect(page.status == 200 && page.contentType.hasPrefix("text/html"))
    #expect(page.headers.contains { $0.0 == "Content-Security-Policy" })
    let photo = app.handle(Self.request("GET", "/photo"), guard: Self.access)
    let bytes = Array(try Data(contentsOf: folder.url.appendingPathComponent("p.jpg")))
    #expect(photo.status == 200 && photo.contentType == "image/jpeg" && photo.body == bytes)
    #expect(app.handle(Self.request("GET", "/stamps/0"), guard: Self.access).contentType == "image/png")
    for path in ["/stamps/1", "/stamps/-1", "/stamps/../m.json", "/m.json", "/p.jpg", "/render/output"] {
      #expect(app.handle(Self.request("GET", path), guard: Self.access).status == 404, "\(path)")
    }
    #expect(app.handle(Self.request("GET", ""), guard: Self.access).status == 308)
  }

  @Test func framesMoveTheStampAndTheStateSaysSo() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    let (app, _) = try Self.app(folder)
    let page = try Self.openPage(app)
    // No view: one point per pixel. The stamp at (20, 10) dragged by (24, 12), past the tap slop of 10.
    let frames = """
      {"page": "\(page)", "frames": [{"t": 1, "input": [{"pointer": 9, "phase": "began", "x": 20, "y": 10}]},
                  {"t": 1.05, "input": [{"pointer": 9, "phase": "moved", "x": 32, "y": 16}]},
                  {"t": 1.1, "input": [{"pointer": 9, "phase": "moved", "x": 44, "y": 22}]},
                  {"t": 1.15, "input": [{"pointer": 9, "phase": "ended", "x": 44, "y": 22}]}]}
      """
    let answer = app.handle(Self.request("POST", "/api/frames", json: frames), guard: Self.access)
    let text = String(decoding: answer.body, as: UTF8.self)
    #expect(answer.status == 200 && text.contains("\"center\": [44, 22]") && text.contains("\"frames\": 4"))
  }

  @Test func badRequestsAreRefusedAndTheManifestIsNotWritten() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    let (app, text) = try Self.app(folder)
    let page = try Self.openPage(app)
    let save = "{\"page\": \"\(page)\"}"
    var large = Self.request("POST", "/api/save", json: save)
    large.bodyTooLarge = true
    var foreign = Self.request("POST", "/api/save", json: save)
    foreign.origin = "http://attacker.example"
    var rebound = Self.request("POST", "/api/save", json: save)
    rebound.host = "attacker.example:9000"
    let cases: [(HTTPRequest, Int)] = [
      (large, 413), (foreign, 403), (rebound, 421),
      (Self.request("POST", "/api/save", json: save, type: "text/plain"), 415),
      (Self.request("POST", "/api/save", json: "{}"), 400),
      (Self.request("POST", "/api/save", json: "{\"page\": \"0123\"}"), 410),
      (Self.request("POST", "/api/frames", json: "{\"frames\": [{\"t\": 1, \"input\": [{\"x\": 1}]}]}"), 400),
      (Self.request("POST", "/api/frames", json: "[[[[[[[[[[[[1]]]]]]]]]]]]"), 400),
      (Self.request("PUT", "/api/save", json: "{}"), 405),
      (HTTPRequest(method: "POST", path: "/api/save", host: "127.0.0.1:9000", contentType: "application/json"), 404),
    ]
    for (request, status) in cases {
      #expect(app.handle(request, guard: Self.access).status == status, "\(request.method) \(request.path)")
    }
    #expect(try String(contentsOfFile: folder.path("m.json"), encoding: .utf8) == text)
    // A good save writes.
    #expect(app.handle(Self.request("POST", "/api/save", json: save), guard: Self.access).status == 200)
    #expect(try String(contentsOfFile: folder.path("m.json"), encoding: .utf8) != text)
  }
}

extension RecorderAppTests {
  /// Two pages whose fingers have the same pointer ids: each page's finger moves its own stamp in its own
  /// recording, and a page's cancel lifts only its own fingers.
  @Test func twoPagesWithTheSameFingerIdsNeverMoveOrLiftEachOthersFingers() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    let (app, _) = try Self.app(folder)
    let a = try Self.openPage(app)
    let b = try Self.openPage(app)
    #expect(a != b)
    func send(_ page: String, _ t: Double, _ phase: String, _ x: Double, _ y: Double) -> Int {
      let body =
        "{\"page\": \"\(page)\", \"frames\": [{\"t\": \(t), \"input\": "
        + "[{\"pointer\": 1, \"phase\": \"\(phase)\", \"x\": \(x), \"y\": \(y)}]}]}"
      return app.handle(Self.request("POST", "/api/frames", json: body), guard: Self.access).status
    }
    // Page A's pointer 1 lands on the stamp at (20, 10); page B's pointer 1 lands at (80, 40), off it.
    #expect(send(a, 1, "began", 20, 10) == 200)
    #expect(send(b, 1, "began", 80, 40) == 200)
    // B moves its finger 30 points left: a one-finger drag on no stamp (the view cannot scroll at zoom 1).
    #expect(send(b, 1.1, "moved", 50, 40) == 200)
    // A drags its stamp by (20, 0).
    #expect(send(a, 1.2, "moved", 40, 10) == 200)
    #expect(try Self.centres(app, page: a) == [[40, 10]])
    #expect(try Self.centres(app, page: b) == [[20, 10]])
    // B reloads (a new load of the same page): only B's finger is taken away; A's drag goes on.
    #expect(try Self.openPage(app, resume: b) == b)
    #expect(send(a, 1.3, "moved", 50, 10) == 200)
    #expect(try Self.centres(app, page: a) == [[50, 10]])
    #expect(send(a, 1.4, "ended", 50, 10) == 200)
    #expect(send(b, 1.4, "moved", 10, 10) == 200)  // B's pointer 1 is unknown now: nothing happens
    #expect(try Self.centres(app, page: b) == [[20, 10]])
  }

  /// A stamp file changed after the recorder read it: Save (and Render) refuse, naming it, and write nothing.
  @Test func saveRefusesNamingAStampEditedSinceThePageLoaded() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    let (app, text) = try Self.app(folder)
    let page = try Self.openPage(app)
    try folder.ppm("s.png", width: 10, height: 10, rgb: [0, 255, 0])
    for path in ["/api/save", "/api/render"] {
      let answer = app.handle(Self.request("POST", path, json: "{\"page\": \"\(page)\"}"), guard: Self.access)
      let message = String(decoding: answer.body, as: UTF8.self)
      #expect(
        answer.status == 409 && message.contains(folder.path("s.png")) && message.contains("changed"), "\(message)")
    }
    #expect(try String(contentsOfFile: folder.path("m.json"), encoding: .utf8) == text)
  }

  /// The state says when what the page shows differs from what the manifest holds: after a gesture, not after
  /// Save.
  @Test func theStateSaysWhetherThereAreUnsavedChanges() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    let (app, _) = try Self.app(folder)
    let page = try Self.openPage(app)
    func unsaved() throws -> Bool {
      let answer = app.handle(Self.request("GET", "/api/state/\(page)"), guard: Self.access)
      return try JSONParser().parse(answer.body, file: "state")["unsaved"]?.kind == .bool(true)
    }
    #expect(try !unsaved())
    let tap =
      "{\"page\": \"\(page)\", \"frames\": [{\"t\": 1, \"input\": [{\"pointer\": 1, \"phase\": \"began\", "
      + "\"x\": 20, \"y\": 10}]}, {\"t\": 1.05, \"input\": [{\"pointer\": 1, \"phase\": \"ended\", "
      + "\"x\": 20, \"y\": 10}]}]}"
    #expect(app.handle(Self.request("POST", "/api/frames", json: tap), guard: Self.access).status == 200)
    #expect(try unsaved())
    let save = app.handle(Self.request("POST", "/api/save", json: "{\"page\": \"\(page)\"}"), guard: Self.access)
    #expect(save.status == 200)
    #expect(try !unsaved())
  }

  /// The screen, which sees a request before its body, refuses what the guard refuses and lets the rest on.
  @Test func theScreenRefusesWithoutTheTokenBeforeTheBody() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    let (app, _) = try Self.app(folder)
    var foreign = Self.request("POST", "/api/save")
    foreign.host = "evil.example:9000"
    #expect(app.screen(foreign, guard: Self.access)?.status == 421)
    #expect(
      app.screen(HTTPRequest(method: "POST", path: "/x", host: "127.0.0.1:9000"), guard: Self.access)?.status == 404)
    #expect(app.screen(Self.request("POST", "/api/save"), guard: Self.access) == nil)
  }
}

extension RecorderAppTests {
  /// Listening on `::` (every address, IPv4 too), the URLs printed name loopback first, in both families, and
  /// never a placeholder.
  @Test func theURLsOfAServerOnEveryAddressNameRealAddresses() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    let (app, _) = try Self.app(folder)
    let server = try RecorderServer(app, address: "::", port: 0)
    defer { server.server.stop() }
    let urls = server.urls(listening: "::")
    let port = server.access.port
    let token = server.access.token
    #expect(urls.first == "http://127.0.0.1:\(port)/\(token)/")
    #expect(urls.contains("http://[::1]:\(port)/\(token)/"))
    #expect(!urls.contains { $0.contains("ADDRESS") || $0.contains("0.0.0.0") || $0.contains("[::]") })
    #expect(server.urls(listening: "127.0.0.1") == ["http://127.0.0.1:\(port)/\(token)/"])
  }
}
