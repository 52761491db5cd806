import Foundation
import StampCore
import StampManifest
import StampTestFolders
import Testing

@testable import StampRecord

@Suite("ManifestStore: a save changes only the job, in a JSON or JSON Lines manifest, or makes a new one")
struct ManifestStoreTests {
  static let gestures: [GestureItem] = [
    .touches([
      TouchEvent(t: 0, id: 0, phase: .began, location: StampPoint(10, 20)),
      TouchEvent(t: 0.1, id: 0, phase: .ended, location: StampPoint(10, 20)),
    ])
  ]

  @Test func aJSONLinesSaveChangesTheJobsLineAndKeepsTheHeaderAndTheOtherLines() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    let header = "{\"version\": 1, \"defaults\": {\"settings\": {\"tapSlop\": 4}}}\n"
    let other = "{\"id\": \"b\", \"base\": \"p.jpg\"}\n"
    _ = try folder.write("m.jsonl", header + "{\"id\": \"a\", \"base\": \"p.jpg\"}\n" + other)
    var store = ManifestStore(path: folder.path("m.jsonl"), holdsJob: true)
    try store.save(JobEntry(id: "a", base: "p.jpg", output: "a.jpg", gestures: Self.gestures))
    let text = try String(contentsOfFile: folder.path("m.jsonl"), encoding: .utf8)
    let touches =
      "[{\"touches\": [{\"t\": 0, \"id\": 0, \"phase\": \"began\", \"x\": 10, \"y\": 20}, "
      + "{\"t\": 0.1, \"id\": 0, \"phase\": \"ended\", \"x\": 10, \"y\": 20}]}]"
    #expect(text == header + "{\"id\": \"a\", \"base\": \"p.jpg\", \"gestures\": \(touches)}\n" + other)
    // The batch reads it back with the header's defaults.
    let jobs = try ManifestDecoder().decode(contentsOf: URL(fileURLWithPath: folder.path("m.jsonl"))).jobs
    #expect(jobs.map(\.id) == ["a", "b"] && jobs[0].gestures == Self.gestures && jobs[0].settings.tapSlop == 4)
  }

  @Test func aNewJobMakesTheManifestWithItsFilesNamedAsSpelled() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    var store = ManifestStore(path: folder.path("new.json"), holdsJob: false)
    store.spelling = ["/abs/p.jpg": "p.jpg"]
    try store.save(JobEntry(id: "n", base: "/abs/p.jpg", output: "n.jpg", gestures: Self.gestures))
    #expect(store.holdsJob)
    let jobs = try ManifestDecoder().decode(contentsOf: URL(fileURLWithPath: folder.path("new.json"))).jobs
    #expect(jobs.count == 1 && jobs[0].base == folder.path("p.jpg") && jobs[0].gestures == Self.gestures)
    // The second save replaces the gestures of the job the first one added.
    try store.save(JobEntry(id: "n", base: "/abs/p.jpg", output: "n.jpg", gestures: []))
    let again = try ManifestDecoder().decode(contentsOf: URL(fileURLWithPath: folder.path("new.json"))).jobs
    #expect(again.count == 1 && again[0].gestures.isEmpty)
  }

  @Test func aManifestThatLostTheJobIsNotWritten() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    let text = "{\"version\": 1, \"jobs\": [{\"id\": \"other\", \"base\": \"p.jpg\"}]}\n"
    _ = try folder.write("m.json", text)
    var store = ManifestStore(path: folder.path("m.json"), holdsJob: true)
    #expect(throws: RecordError.self) { try store.save(JobEntry(id: "a", base: "p.jpg", output: "a.jpg")) }
    #expect(try String(contentsOfFile: folder.path("m.json"), encoding: .utf8) == text)
  }
}
