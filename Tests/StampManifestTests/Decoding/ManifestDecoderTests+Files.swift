import Foundation
import StampCore
import StampTestFolders
import Testing

@testable import StampManifest

/// `ManifestDecoder` reading files: names, folders, both formats, validation.
struct ManifestDecoderFileTests {
  @Test func relativeInputPathsResolveAgainstTheManifestsFolder() throws {
    let folder = try TestFolder("stampmanifest")
    defer { folder.remove() }
    let text =
      #"{"version": 1, "jobs": [{"base": "photos/a.jpg", "stamps": [{"id": 1, "image": "/s.png", "center": [0, 0]}]}]}"#
    let url = try folder.write("sub/m.json", text)
    let job = try #require(try ManifestDecoder().decode(contentsOf: url).jobs.first)
    #expect(job.base == folder.url.path + "/sub/photos/a.jpg")
    #expect(job.stamps.first?.image == "/s.png", "absolute paths are kept")
    #expect(ManifestDecoder.names(of: URL(fileURLWithPath: "m.json")) == ("m.json", ""))
    #expect(ManifestDecoder.names(of: URL(fileURLWithPath: "set/m.json")) == ("set/m.json", "set"))
  }

  @Test func validateCollectsEveryProblemInEitherFormat() throws {
    let folder = try TestFolder("stampmanifest")
    defer { folder.remove() }
    let json = try folder.write("m.json", "{\"version\": 1,\n \"jobs\": [{\"bass\": \"a.jpg\"}]}")
    #expect(
      ManifestDecoder().validate(contentsOf: json).map(\.description) == [
        "\(json.path):2: jobs[0].bass: unknown key (did you mean \"base\"?)",
        "\(json.path):2: jobs[0]: needs \"base\" or \"photos\"",
      ])
    let lines = try folder.write("m.jsonl", "{\"base\": 1}\n{\"base\": \"b\"}\n{\"base\": []}\n")
    #expect(
      ManifestDecoder().validate(contentsOf: lines).map(\.description) == [
        "\(lines.path):1: jobs[0].base: expected a string, found a number",
        "\(lines.path):3: jobs[2].base: expected a string, found an array",
      ])
    let good = try folder.write("g.json", #"{"version": 1, "jobs": []}"#)
    #expect(ManifestDecoder().validate(contentsOf: good).isEmpty)
  }

  @Test func validateCapsTheNumberOfDiagnostics() throws {
    let folder = try TestFolder("stampmanifest")
    defer { folder.remove() }
    let url = try folder.write("m.jsonl", String(repeating: "{}\n", count: 10))
    let diagnostics = ManifestDecoder(limits: Limits(maxDiagnostics: 3)).validate(contentsOf: url)
    #expect(diagnostics.count == 4)
    #expect(diagnostics.last?.description == "\(url.path): 7 more errors not shown")
  }

  @Test func unreadableAndOversizedFilesAreNamed() throws {
    let missing = URL(fileURLWithPath: "/nonexistent/m.json")
    #expect(
      ManifestDecoder().validate(contentsOf: missing).map(\.description) == [
        "/nonexistent/m.json: cannot read the file (no such file or directory)"
      ])
    let folder = try TestFolder("stampmanifest")
    defer { folder.remove() }
    #expect(
      ManifestDecoder().validate(contentsOf: folder.url).first?.message == "cannot read the file (is a directory)")
    let big = try folder.write("big.json", "[" + String(repeating: "1,", count: 100) + "1]")
    #expect(
      ManifestDecoder(limits: Limits(maxBytes: 50)).validate(contentsOf: big).map(\.message) == [
        "the file is larger than the limit of 50 bytes"
      ])
  }

  @Test func decodeReadsJSONLinesToTheEnd() throws {
    let folder = try TestFolder("stampmanifest")
    defer { folder.remove() }
    let url = try folder.write("m.jsonl", "{\"base\": \"a\"}\n{\"base\": \"b\"}\n")
    #expect(try ManifestDecoder().decode(contentsOf: url).jobs.map(\.id) == ["0", "1"])
  }
}
