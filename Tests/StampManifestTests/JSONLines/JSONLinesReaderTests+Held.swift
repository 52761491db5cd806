import Foundation
import StampTestFolders
import Testing

@testable import StampManifest

/// A JSON Lines manifest is validated in one pass and rendered in a second: the second must read the file the first
/// validated.
struct JSONLinesHeldTests {
  static let jobs = [
    #"{"id": "a", "base": "p.jpg", "output": "a.jpg", "overlay": true}"#,
    #"{"id": "b", "base": "p.jpg", "output": "b.jpg"}"#,
  ]

  /// The first pass's jobs: the ids and outputs of the lines that decode.
  static func outputs(_ reader: JSONLinesReader) -> [String] {
    reader.map { (try? $0.result.get()).map { $0.id + ":" + $0.output } ?? "failed" }
  }

  /// The weakness: between the passes, a manifest renamed over the validated one (a job's output now another job's
  /// overlay) was read by the second pass. Now every pass reads the file opened once, never the other one, and finds
  /// that it changed (removed from its folder, its change time moved): the pass stops there, saying so.
  @Test func aManifestRenamedOverBetweenThePassesIsNotRead() throws {
    let folder = try TestFolder("stampmanifest")
    defer { folder.remove() }
    let url = try folder.write("m.jsonl", Self.jobs.joined(separator: "\n") + "\n")
    let reader = ManifestDecoder().jobs(inLinesHeldOpenAt: url)
    #expect(ManifestDecoder().validate(reader).isEmpty)
    let swapped = Self.jobs[1].replacingOccurrences(of: #""b.jpg""#, with: #""a.overlay.jpg""#)
    try folder.write("other.jsonl", Self.jobs[0] + "\n" + swapped + "\n")
    #expect(rename(folder.path("other.jsonl"), url.path) == 0)
    #expect(Self.outputs(reader) == ["failed"])
    #expect(Self.failure(reader).contains("the file changed after it was opened"))
  }

  /// The first record's failure, or what it was.
  static func failure(_ reader: JSONLinesReader) -> String {
    guard let first = reader.first(where: { _ in true }) else { return "no record" }
    guard case .failure(let error) = first.result else { return "a job" }
    return "\(error)"
  }

  /// The same edit made in place (same inode, same size: `b.jpg` becomes `c.jpg`) is found by the file's new
  /// modification and change times: the pass stops with a failure naming the file, and yields no job after it.
  @Test func aManifestEditedInPlaceBetweenThePassesStopsTheSecond() throws {
    let folder = try TestFolder("stampmanifest")
    defer { folder.remove() }
    let text = Self.jobs.joined(separator: "\n") + "\n"
    let url = try folder.write("m.jsonl", text)
    let reader = ManifestDecoder().jobs(inLinesHeldOpenAt: url)
    #expect(Self.outputs(reader) == ["a:a.jpg", "b:b.jpg"])
    // Past the file system's clock tick (at most 10 ms), so that the write shows in the times.
    Thread.sleep(forTimeInterval: 0.05)
    let fd = open(url.path, O_WRONLY)
    let edited = Array(text.replacingOccurrences(of: #""b.jpg""#, with: #""c.jpg""#).utf8)
    #expect(edited.count == text.utf8.count && pwrite(fd, edited, edited.count, 0) == edited.count)
    close(fd)
    #expect(Array(reader).count == 1)
    let message = Self.failure(reader)
    #expect(message.contains("m.jsonl") && message.contains("the file changed after it was opened"), "\(message)")
  }
}
