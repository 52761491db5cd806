import Foundation
import StampCore
import StampTestFolders
import Testing

@testable import StampManifest

/// Inputs on which `scripts/fuzz` found the decoder trapping; each must now give a clear error.
struct FuzzFindingsTests {
  /// A version too large for an Int was converted with `Int(_:)` and trapped; it is just an unsupported version.
  @Test func hugeVersionIsUnsupportedNotATrap() {
    #expect(
      problems(manifest: #"{"version": 9e151, "jobs": []}"#) == [
        "m.json:1: version: unsupported version 9e+151 (this stampcam reads version 1)"
      ])
    #expect(
      problems(manifest: #"{"version": -1e300, "jobs": []}"#) == [
        "m.json:1: version: unsupported version -1e+300 (this stampcam reads version 1)"
      ])
  }

  /// The JSON Lines header hit the same trap (the fuzzer's input: a header line with `"version": 9e151`).
  @Test func hugeVersionInAJSONLinesHeaderIsUnsupported() throws {
    let folder = try TestFolder("stampmanifest")
    defer { folder.remove() }
    let url = try folder.write(
      "m.jsonl", "{\"version\": 9e151, \"defaults\": {}}\n{\"id\": \"one\", \"base\": \"a.jpg\"}\n")
    let problems = ManifestDecoder().validate(contentsOf: url).map(\.description)
    #expect(problems == ["\(url.path):1: version: unsupported version 9e+151 (this stampcam reads version 1)"])
  }

  /// An integer field whose bounds are wider than Int reports the value rather than trapping on the conversion.
  @Test func integerBeyondIntIsReported() throws {
    var walker = ManifestWalker(file: "m.json", folder: "", limits: Limits())
    let unbounded = NumberBounds(min: -.greatestFiniteMagnitude, minExclusive: false, max: .greatestFiniteMagnitude)
    let huge = JSONValue(.number(1e19), line: 1, column: 1)
    #expect(walker.integer(huge, unbounded, "n") == nil)
    #expect(walker.diagnostics.map(\.description) == ["m.json:1: n: integer 1e+19 is too large"])
  }
}
