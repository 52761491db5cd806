import Testing

@testable import StampManifest

struct JSONParserTests {
  @Test func valuesCarryTheirLineAndColumn() throws {
    let text = "{\n  \"a\": [1, true],\n  \"b\": {\"c\": null}\n}"
    let root = try JSONParser().parse(text)
    #expect(root.line == 1 && root.column == 1)
    let a = try #require(root["a"])
    #expect(a.line == 2 && a.column == 8)
    guard case .array(let items) = a.kind else { Issue.record("not an array"); return }
    #expect(items.map(\.column) == [9, 12])
    #expect(items[1].kind == .bool(true))
    let c = try #require(root["b"]?["c"])
    #expect(c.line == 3 && c.column == 14 && c.kind == .null)
  }

  struct NumberCase: CustomStringConvertible, Sendable {
    let text: String
    let value: Double
    var description: String { text }
  }

  @Test(arguments: [
    NumberCase(text: "0", value: 0), NumberCase(text: "-0", value: -0.0), NumberCase(text: "12", value: 12),
    NumberCase(text: "0.52", value: 0.52), NumberCase(text: "-3.25e2", value: -325),
    NumberCase(text: "1E-3", value: 0.001),
    NumberCase(text: "2.5e+1", value: 25),
    NumberCase(text: "123456789012345678901234", value: 123456789012345685803008),  // the nearest double
    NumberCase(text: "0.1000000000000000055511151231257827", value: 0.1), NumberCase(text: "1e400", value: .infinity),
    NumberCase(text: "9007199254740993", value: 9007199254740992), NumberCase(text: "1e-400", value: 0),
  ])
  func numbersAreCorrectlyRounded(_ c: NumberCase) throws {
    let value = try JSONParser().parse(c.text)
    #expect(value.kind == .number(c.value))
    if case .number(let x) = value.kind { #expect(x.sign == c.value.sign) }
  }

  @Test func stringsDecodeEscapesAndUnicode() throws {
    let text = #"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u20AC\ud83d\ude00", "café ✓"]"#
    let root = try JSONParser().parse(text)
    #expect(
      root.kind
        == .array([
          JSONValue(.string("a\"b\\c/d\u{8}\u{c}\n\r\t"), line: 1, column: 2),
          JSONValue(.string("é€😀"), line: 1, column: 26),
          JSONValue(.string("café ✓"), line: 1, column: 54),
        ]))
  }

  struct SyntaxCase: CustomStringConvertible, Sendable {
    let text: String
    let line: Int
    let column: Int
    let words: String
    var description: String { text }
  }

  @Test(arguments: [
    SyntaxCase(text: "", line: 1, column: 1, words: "empty"),
    SyntaxCase(text: "[1, 2,]", line: 1, column: 7, words: "trailing comma"),
    SyntaxCase(text: "{\"a\": 1,\n \"a\": 2}", line: 2, column: 2, words: "duplicate key \"a\""),
    SyntaxCase(text: "{\"a\" 1}", line: 1, column: 6, words: "expected ':'"),
    SyntaxCase(text: "[01]", line: 1, column: 3, words: "leading zero"),
    SyntaxCase(text: "[1.]", line: 1, column: 4, words: "digit after '.'"),
    SyntaxCase(text: "[NaN]", line: 1, column: 2, words: "unexpected 'N'"),
    SyntaxCase(text: "[tru]", line: 1, column: 5, words: "unexpected ']'"),
    SyntaxCase(text: "\"a\nb\"", line: 1, column: 3, words: "control character"),
    SyntaxCase(text: #""\x""#, line: 1, column: 2, words: "invalid escape"),
    SyntaxCase(text: #""\ud800""#, line: 1, column: 8, words: "unpaired surrogate"),
    SyntaxCase(text: "\"abc", line: 1, column: 5, words: "unterminated string"),
    SyntaxCase(text: "{} x", line: 1, column: 4, words: "after the json value"),
    SyntaxCase(text: "// c\n{}", line: 1, column: 1, words: "unexpected '/'"),
    SyntaxCase(text: "{\"a\":1 \"b\":2}", line: 1, column: 8, words: "expected ',' or '}'"),
  ])
  func syntaxErrorsNameLineAndColumn(_ c: SyntaxCase) throws {
    let error = try #require(throws: ManifestError.self) { try JSONParser().parse(c.text, file: "x.json") }
    let d = try #require(error.diagnostics.first)
    #expect(error.diagnostics.count == 1)
    #expect(d.file == "x.json" && d.line == c.line && d.column == c.column)
    #expect(d.message.contains(c.words), "\(d.message)")
  }

  @Test func invalidUTF8IsRejected() throws {
    let bytes: [UInt8] = [0x22, 0x61, 0xC3, 0x28, 0x22]
    let error = try #require(throws: ManifestError.self) { try JSONParser().parse(bytes) }
    #expect(error.description.contains("invalid utf-8"))
  }

  @Test func hostileNestingIsRejectedWithoutCrashing() throws {
    let text = String(repeating: "[", count: 100_000)
    let error = try #require(throws: ManifestError.self) { try JSONParser().parse(text) }
    #expect(error.diagnostics.first?.message == "json nested deeper than 64 levels")
    #expect(error.diagnostics.first?.column == 65)
    let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
    #expect(throws: Never.self) { try JSONParser().parse(deepest) }
  }

  @Test func oversizedDocumentsAreRejected() throws {
    let error = try #require(throws: ManifestError.self) { try JSONParser(maxBytes: 8).parse("[1, 2, 3, 4]") }
    #expect(error.diagnostics.first?.message == "document is 12 bytes, larger than the limit of 8 bytes")
  }

  @Test func duplicateKeysCanBeKeptForTheCaller() throws {
    let root = try JSONParser(duplicateKeys: .keep).parse(#"{"a": 1, "a": 2}"#)
    guard case .object(let members) = root.kind else { Issue.record("not an object"); return }
    #expect(members.map(\.key) == ["a", "a"])
  }

  @Test func largeObjectsStillCatchDuplicates() throws {
    let keys = (0..<40).map { "\"k\($0)\": \($0)" } + ["\"k3\": 0"]
    let error = try #require(throws: ManifestError.self) {
      try JSONParser().parse("{" + keys.joined(separator: ", ") + "}")
    }
    #expect(error.diagnostics.first?.message == "invalid json: duplicate key \"k3\"")
  }

  @Test func byteOrderMarkIsSkipped() throws {
    #expect(try JSONParser().parse([0xEF, 0xBB, 0xBF, 0x5B, 0x5D]).kind == .array([]))
  }
}
