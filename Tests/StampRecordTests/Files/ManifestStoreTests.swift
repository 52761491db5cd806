import Foundation
import StampCore
import StampManifest
import StampTestFolders
import Testing

@testable import StampFiles
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

extension ManifestStoreTests {
  /// A private manifest stays private: Save keeps its permissions, and (as root may) its owner and group.
  @Test func aSaveKeepsTheManifestsPermissionsOwnerAndGroup() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    _ = try folder.write("m.json", "{\"version\": 1, \"jobs\": [{\"id\": \"a\", \"base\": \"p.jpg\"}]}\n")
    let path = folder.path("m.json")
    #expect(chmod(path, 0o600) == 0)
    let root = geteuid() == 0
    if root { #expect(chown(path, 1234, 5678) == 0) }
    var store = ManifestStore(path: path, holdsJob: true)
    try store.save(JobEntry(id: "a", base: "p.jpg", output: "a.jpg", gestures: Self.gestures))
    var info = stat()
    #expect(stat(path, &info) == 0)
    #expect(info.st_mode & 0o7777 == 0o600)
    if root { #expect(info.st_uid == 1234 && info.st_gid == 5678) }
    let jobs = try ManifestDecoder().decode(contentsOf: URL(fileURLWithPath: path)).jobs
    #expect(jobs.first?.gestures == Self.gestures)
    // A group-readable one stays group-readable (0640), not widened to the umask's 0644.
    #expect(chmod(path, 0o640) == 0)
    try store.save(JobEntry(id: "a", base: "p.jpg", output: "a.jpg", gestures: []))
    #expect(stat(path, &info) == 0 && info.st_mode & 0o7777 == 0o640)
  }

  /// Temporary files of a save killed midway are removed when the recorder starts: only those named for this
  /// manifest by a process that is gone; not a live process's, not another file's, not a look-alike.
  @Test func staleTemporariesOfTheManifestAreSweptAndNothingElse() throws {
    let folder = try TestFolder()
    defer { folder.remove() }
    _ = try folder.write("m.json", "{\"version\": 1, \"jobs\": []}\n")
    let machine = TemporaryName.machine
    let dead = ".m.json.stampcam-\(machine)-2147483646-0badcafe.tmp"
    let live = ".m.json.stampcam-\(machine)-\(getpid())-0badcafe.tmp"
    let other = ".n.json.stampcam-\(machine)-2147483646-0badcafe.tmp"
    let lookAlike = ".m.json.stampcam-\(machine)-2147483646-0badcafe.tmp.keep"
    for name in [dead, live, other, lookAlike] { _ = try folder.write(name, "{") }
    let removed = ManifestStore.removeStaleTemporaries(of: folder.path("m.json"))
    #expect(removed == [dead])
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    #expect(Set(left) == [live, other, lookAlike, "m.json"])
  }
}
