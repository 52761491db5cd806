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
    // No view: one point per pixel. The stamp at (20, 10) dragged by (24, 12), past the tap slop of 10.
    let frames = """
      {"frames": [{"t": 1, "input": [{"pointer": 9, "phase": "began", "x": 20, "y": 10}]},
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
    var large = Self.request("POST", "/api/save", json: "{}")
    large.bodyTooLarge = true
    var foreign = Self.request("POST", "/api/save", json: "{}")
    foreign.origin = "http://attacker.example"
    var rebound = Self.request("POST", "/api/save", json: "{}")
    rebound.host = "attacker.example:9000"
    let cases: [(HTTPRequest, Int)] = [
      (large, 413), (foreign, 403), (rebound, 421),
      (Self.request("POST", "/api/save", json: "{}", type: "text/plain"), 415),
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
    #expect(app.handle(Self.request("POST", "/api/save", json: "{}"), guard: Self.access).status == 200)
    #expect(try String(contentsOfFile: folder.path("m.json"), encoding: .utf8) != text)
  }
}
