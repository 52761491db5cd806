import StampCore
import Testing

@testable import StampManifest

@Suite("ManifestSplice: one job's gestures changed, every other byte of the manifest kept")
struct ManifestSpliceTests {
  static let tap: [GestureItem] = [.tap(StampPoint(1, 2))]

  static func splice(_ text: String, _ id: String, format: ManifestFormat = .json) throws -> String {
    let bytes = try ManifestSplice.replacingGestures(
      of: id, with: tap, in: Array(text.utf8), format: format, file: "m.json")
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func theGesturesValueIsReplacedAndNothingElseChanges() throws {
    let text = """
      {"version": 1,  "jobs": [
        {"id": "a", "base": "p.jpg", "gestures": [ {"tap": {"at": [9, 9]}} ]},
        {"id": "b",   "base": "p.jpg",
         "gestures": [], "overlay": true}
      ]}

      """
    let expected = """
      {"version": 1,  "jobs": [
        {"id": "a", "base": "p.jpg", "gestures": [ {"tap": {"at": [9, 9]}} ]},
        {"id": "b",   "base": "p.jpg",
         "gestures": [{"tap": {"at": [1, 2]}}], "overlay": true}
      ]}

      """
    #expect(try Self.splice(text, "b") == expected)
  }

  @Test func aJobWithoutGesturesGetsThemAfterItsLastMember() throws {
    let text = "{\"jobs\": [\n  {\n    \"id\": \"a\",\n    \"base\": \"p.jpg\"\n  }\n]}\n"
    let expected =
      "{\"jobs\": [\n  {\n    \"id\": \"a\",\n    \"base\": \"p.jpg\",\n    \"gestures\": [{\"tap\": {\"at\": [1, 2]}}]"
      + "\n  }\n]}\n"
    #expect(try Self.splice(text, "a") == expected)
    // A job on one line gets the member on that line.
    #expect(
      try Self.splice("{\"jobs\": [{\"base\": \"p.jpg\"}]}", "0")
        == "{\"jobs\": [{\"base\": \"p.jpg\", \"gestures\": [{\"tap\": {\"at\": [1, 2]}}]}]}")
  }

  @Test func aJSONLinesManifestChangesOnlyTheJobsLine() throws {
    let text =
      "{\"version\": 1, \"defaults\": {}}\n{\"id\": \"a\", \"base\": \"p.jpg\"}\n{\"id\": \"b\", \"base\": \"q.jpg\"}\n"
    let expected =
      "{\"version\": 1, \"defaults\": {}}\n{\"id\": \"a\", \"base\": \"p.jpg\"}\n"
      + "{\"id\": \"b\", \"base\": \"q.jpg\", \"gestures\": [{\"tap\": {\"at\": [1, 2]}}]}\n"
    #expect(try Self.splice(text, "b", format: .jsonLines) == expected)
  }

  @Test func aNewJobGoesAfterTheLastOne() throws {
    let job = JobEntry(id: "n", base: "p.jpg", output: "n.jpg")
    let text = "{\"jobs\": [\n    {\"id\": \"a\", \"base\": \"p.jpg\"}\n]}\n"
    let bytes = try ManifestSplice.appending(job, to: Array(text.utf8), format: .json, file: "m.json")
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == "{\"jobs\": [\n    {\"id\": \"a\", \"base\": \"p.jpg\"},\n    "
        + "{\"id\": \"n\", \"base\": \"p.jpg\", \"output\": \"n.jpg\"}\n]}\n")
    let lines = try ManifestSplice.appending(job, to: Array("{\"id\": \"a\"}".utf8), format: .jsonLines, file: "m")
    #expect(
      String(decoding: lines, as: UTF8.self)
        == "{\"id\": \"a\"}\n{\"id\": \"n\", \"base\": \"p.jpg\", \"output\": \"n.jpg\"}\n")
  }

  @Test func aJobThatIsNotThereIsAnErrorNamingIt() {
    #expect(throws: ManifestError.self) { try Self.splice("{\"jobs\": [{\"id\": \"a\", \"base\": \"p\"}]}", "z") }
  }

  @Test func theSpanOfAValueEndsJustAfterIt() throws {
    let bytes = Array("{\"a\": [1, {\"b\": \"]\"}],\n \"c\": 2}".utf8)
    let root = try JSONParser().parse(bytes)
    let a = try #require(root["a"])
    // `[1, {"b": "]"}]` starts at offset 6 and is 15 bytes long (the "]" inside the string does not end it).
    #expect(try JSONParser().span(of: a, in: bytes) == 6..<21)
    let c = try #require(root["c"])
    #expect(try JSONParser().span(of: c, in: bytes) == 29..<30)
  }
}
