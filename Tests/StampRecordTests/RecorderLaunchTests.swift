import Foundation
import StampManifest
import StampTestFolders
import StampTestSupport
import Testing

@testable import StampRecord

@Suite("RecorderLaunch: which job and which photo the recorder opens")
struct RecorderLaunchTests {
  static func shown(_ app: RecorderApp) -> (index: Int?, job: String?) {
    let page = (try? RecorderAppTests.openPage(app)) ?? ""
    let answer = app.handle(
      RecorderAppTests.request("POST", "/api/photos", json: "{\"page\": \"\(page)\"}"), guard: RecorderAppTests.access)
    let body = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any]
    let photo = body?["photo"] as? [String: Any]
    return (photo?["index"] as? Int, photo?["job"] as? String)
  }

  @Test func aJobOverManyPhotosOpensOnItsFirstPhotoOrOnThePhotoItsJobIdNames() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    _ = try RecorderAppPhotosTests.app(folder)
    let manifest = folder.path("m.json")
    let launch = { (job: String?) in
      try RecorderLaunch(manifest: manifest, job: job, newJob: nil, settings: .init()).open()
    }
    let first = Self.shown(try launch("wm"))
    #expect(first.index == 0 && first.job == "wm/tall.png")
    let named = try launch("wm/wide/w.png")
    #expect(Self.shown(named).index == 1 && Self.shown(named).job == "wm/wide/w.png")
    let state = named.handle(
      RecorderAppTests.request("GET", "/api/state", json: nil, type: nil), guard: RecorderAppTests.access)
    #expect(String(decoding: state.body, as: UTF8.self).contains("\"job\": \"wm/wide/w.png\""))
    #expect {
      try launch("wm/wide/none.png")
    } throws: { error in
      let text = "\(error)"
      return text.contains("no job with id 'wm/wide/none.png'") && text.contains("its 2 photos (tall.png, wide/w.png")
    }
    // A manifest whose only job is over many photos opens it without --job.
    let only = try folder.write(
      "only.json", "{\"version\": 1, \"jobs\": [{\"id\": \"all\", \"photos\": \"in/**/*.png\"}]}")
    let app = try RecorderLaunch(manifest: only.path, job: nil, newJob: nil, settings: .init()).open()
    #expect(Self.shown(app).job == "all/tall.png")
  }

  @Test func aFirstPhotoThatCannotBeReadIsNamedAndAnotherPhotoCanBeOpened() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    _ = try RecorderAppPhotosTests.app(folder)
    try folder.write("in/0.png", "")  // sorts first, and is no picture
    let launch = { (job: String) in
      try RecorderLaunch(manifest: folder.path("m.json"), job: job, newJob: nil, settings: .init()).open()
    }
    #expect {
      try launch("wm")
    } throws: { error in
      let text = "\(error)"
      return text.hasPrefix("job \"wm/0.png\": ") && text.contains("in/0.png")
        && text.hasSuffix("(--job \"wm/PHOTO\" opens it on another of its photos)")
    }
    #expect(Self.shown(try launch("wm/tall.png")).index == 1)
  }
}
