import Foundation
import StampCore
import StampTestFolders
import Testing

@testable import StampManifest

struct JSONLinesReaderTests {
  @Test func eachLineIsOneJobAndErrorsNameTheLine() throws {
    let folder = try TestFolder("stampmanifest")
    defer { folder.remove() }
    let lines = [
      #"{"version": 1, "defaults": {"settings": {"quality": 70}}}"#,
      #"{"id": "a", "base": "a.jpg"}"#,
      "",
      "   ",
      #"{"base": "b.jpg", "stamps": [{"id": "s", "image": "s.png", "centre": [0, 0]}]}"#,
      #"{"id": "a", "base": "c.jpg"}"#,
      #"{"base": "d.jpg",}"#,
      #"{"base": "e.jpg", "settings": {"quality": 50}}"#,
    ]
    let url = try folder.write("set/m.jsonl", lines.joined(separator: "\n"))
    let records = Array(ManifestDecoder().jobs(inLinesAt: url))
    #expect(records.map(\.line) == [2, 5, 6, 7, 8])
    let a = try records[0].result.get()
    #expect(a.id == "a" && a.index == 0 && a.line == 2 && a.settings.quality == 70)
    #expect(a.base == url.deletingLastPathComponent().path + "/a.jpg")
    let name = url.path
    #expect(
      records.compactMap { record -> [String]? in
        guard case .failure(let error) = record.result else { return nil }
        return error.diagnostics.map(\.description)
      } == [
        [
          "\(name):5: jobs[1].stamps[0].centre: unknown key (did you mean \"center\"?)",
          "\(name):5: jobs[1].stamps[0]: needs \"center\" or \"photoCenter\"",
        ],
        [
          "\(name):6: jobs[2].id: duplicate job id \"a\" (also jobs[0])",
          "\(name):6: jobs[2].output: \"a.jpg\" of job \"a\" is also written by jobs[0] (job \"a\"): the same file",
        ],
        ["\(name):7:18: invalid json: expected a string key, found '}'"],
      ])
    let e = try records[4].result.get()
    #expect(e.id == "4" && e.output == "4.jpg" && e.settings.quality == 50)
  }

  @Test func aLineOverTheLimitFailsAloneAndTheNextLinesGoOn() throws {
    let folder = try TestFolder("stampmanifest")
    defer { folder.remove() }
    let long = #"{"base": ""# + String(repeating: "x", count: 300) + #""}"#
    let url = try folder.write("m.ndjson", long + "\n" + #"{"base": "b.jpg"}"# + "\n")
    let reader = JSONLinesReader(url: url, limits: Limits(maxBytes: 100))
    let records = Array(reader)
    #expect(records.count == 2)
    guard case .failure(let error) = records[0].result else { Issue.record("expected a failure"); return }
    #expect(error.diagnostics.map(\.description) == ["\(url.path):1: line is longer than the limit of 100 bytes"])
    #expect((try? records[1].result.get())?.base == folder.url.path + "/b.jpg")
  }

  @Test func linesAreReadAcrossChunkBoundaries() throws {
    let folder = try TestFolder("stampmanifest")
    defer { folder.remove() }
    let jobs = (0..<3000).map { #"{"id": "j\#($0)", "base": "p\#($0).jpg", "output": "o/\#($0).png"}"# }
    let url = try folder.write("m.jsonl", jobs.joined(separator: "\r\n"))
    var count = 0
    for record in JSONLinesReader(url: url) {
      let job = try record.result.get()
      #expect(job.id == "j\(count)" && job.line == count + 1 && job.output == "o/\(count).png")
      count += 1
    }
    #expect(count == 3000)
  }

  @Test func anUnreadableFileIsOneRecordNamingIt() {
    let url = URL(fileURLWithPath: "/nonexistent/m.jsonl")
    let records = Array(JSONLinesReader(url: url))
    #expect(records.count == 1 && records.first?.line == 0)
    guard case .failure(let error) = records.first?.result else { Issue.record("expected a failure"); return }
    #expect(error.description == "/nonexistent/m.jsonl: cannot read the file (no such file or directory)")
  }
}
