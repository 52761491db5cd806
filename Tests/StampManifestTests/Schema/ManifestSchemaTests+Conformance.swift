import Foundation
import Testing

@testable import StampManifest

/// `stampcam schema` describes the manifests the decoder reads: the examples validate, broken manifests fail for
/// the right reason, and where a schema can say it, the schema and the decoder give the same verdict.
@Suite struct SchemaConformanceTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Every `Examples/*.json`, by name.
  static let examples: [String] = {
    let folder = repository.appendingPathComponent("Examples")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted()
  }()

  static func validator() throws -> SchemaValidator {
    try SchemaValidator(JSONParser().parse(ManifestSchema.json, file: "schema.json"))
  }

  static func parse(_ json: String) throws -> JSONValue {
    try JSONParser().parse(json, file: "case.json")
  }

  static func decoderAccepts(_ json: String) -> Bool {
    (try? ManifestDecoder().decode(Array(json.utf8), file: "case.json")) != nil
  }

  // MARK: The validator itself

  @Test func theValidatorKnowsEveryKeywordTheSchemaUses() throws {
    _ = try Self.validator()
  }

  @Test(arguments: [
    #"{"$schema": "https://json-schema.org/draft/2020-12/schema", "propertyNames": {"minLength": 1}}"#,
    #"{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"a": {"minimun": 1}}}"#,
    #"{"$schema": "https://json-schema.org/draft/2020-12/schema", "additionalProperties": {"type": "string"}}"#,
    #"{"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "other.json#/$defs/a"}"#,
    #"{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}"#,
  ])
  func aSchemaBeyondTheValidatorIsRefusedNotIgnored(schema: String) throws {
    #expect(throws: SchemaValidator.Unsupported.self) { try SchemaValidator(Self.parse(schema)) }
  }

  @Test func typesAreJSONSchemasNotSwifts() throws {
    func accepts(_ type: String, _ json: String) throws -> Bool {
      let schema = #"{"$schema": "\#(SchemaValidator.draft)", "type": "\#(type)"}"#
      return try SchemaValidator(Self.parse(schema)).validate(Self.parse(json)).isEmpty
    }
    #expect(try accepts("integer", "3") && accepts("integer", "3.0") && accepts("integer", "-0"))
    #expect(try !accepts("integer", "3.5") && !accepts("integer", "true") && !accepts("integer", "\"3\""))
    #expect(try accepts("number", "3.5") && !accepts("number", "true") && !accepts("number", "false"))
    #expect(try accepts("boolean", "false") && !accepts("boolean", "0") && !accepts("boolean", "1"))
    #expect(try !accepts("string", "null") && !accepts("object", "[]") && !accepts("array", "{}"))
  }

  // MARK: Examples

  @Test func theExamplesFolderHoldsBothExampleManifests() {
    #expect(Self.examples.contains("manifest.json") && Self.examples.contains("recorded.json"))
  }

  @Test(arguments: examples)
  func everyExampleManifestValidates(name: String) throws {
    let url = Self.repository.appendingPathComponent("Examples/\(name)")
    let document = try JSONParser().parse(Array(try Data(contentsOf: url)), file: name)
    let failures = try Self.validator().validate(document)
    #expect(failures.isEmpty, "\(name): \(failures)")
    _ = try ManifestDecoder().decode(contentsOf: url)
  }

  // MARK: Rejections

  struct Rejection: CustomTestStringConvertible, Sendable {
    let name: String
    let json: String
    /// The one failure expected: instance location, keyword, and words of its message.
    let at: String
    let keyword: String
    let words: String

    var testDescription: String { name }

    static let all: [Rejection] = [
      Rejection(
        name: "an unknown key in a job", json: #"{"version": 1, "jobs": [{"base": "p.jpg", "colour": "red"}]}"#,
        at: "/jobs/0", keyword: "additionalProperties", words: "\"colour\""),
      Rejection(
        name: "a string where a number is expected",
        json: #"{"version": 1, "jobs": [{"base": "p.jpg", "view": {"width": "390", "height": 844}}]}"#,
        at: "/jobs/0/view/width", keyword: "type", words: "expected number, found a string"),
      Rejection(
        name: "a stamp without an image",
        json: #"{"version": 1, "jobs": [{"base": "p.jpg", "stamps": [{"id": "s", "center": [1, 2]}]}]}"#,
        at: "/jobs/0/stamps/0", keyword: "required", words: "\"image\""),
      Rejection(
        name: "a gesture item with two keys",
        json: #"""
          {"version": 1, "jobs": [{"base": "p.jpg",
            "gestures": [{"tap": {"at": [1, 2]}, "drag": {"from": [0, 0], "by": [1, 1]}}]}]}
          """#,
        at: "/jobs/0/gestures/0", keyword: "maxProperties", words: "2 keys"),
      Rejection(
        name: "a quality of 101",
        json: #"{"version": 1, "jobs": [{"base": "p.jpg", "settings": {"quality": 101}}]}"#,
        at: "/jobs/0/settings/quality", keyword: "maximum", words: "101"),
      Rejection(
        name: "version 2", json: #"{"version": 2, "jobs": [{"base": "p.jpg"}]}"#,
        at: "/version", keyword: "const", words: "constant"),
    ]
  }

  @Test(arguments: Rejection.all)
  func aBrokenManifestFailsForTheExpectedReasonAlone(rejection: Rejection) throws {
    let failures = try Self.validator().validate(Self.parse(rejection.json))
    try #require(failures.count == 1, "\(failures)")
    let failure = try #require(failures.first)
    #expect(failure.at == rejection.at && failure.keyword == rejection.keyword, "\(failure)")
    #expect(failure.message.contains(rejection.words), "\(failure)")
    #expect(!Self.decoderAccepts(rejection.json))
  }
}

// MARK: Agreement with the decoder

extension SchemaConformanceTests {
  /// A small manifest, one job unless it says otherwise, and whether the decoder should accept it.
  struct Agreement: CustomTestStringConvertible, Sendable {
    let name: String
    let json: String
    let valid: Bool

    var testDescription: String { name }

    /// `{"version": 1, "jobs": [{"base": "p.jpg", <job>}]}`.
    static func job(_ name: String, _ job: String, valid: Bool) -> Agreement {
      let comma = job.isEmpty ? "" : ", "
      return Agreement(name: name, json: #"{"version": 1, "jobs": [{"base": "p.jpg"\#(comma)\#(job)}]}"#, valid: valid)
    }

    /// A job with one stamp `s` and one gesture item.
    static func gesture(_ name: String, _ item: String, valid: Bool) -> Agreement {
      job(name, #""stamps": [{"id": "s", "image": "s.png", "center": [5, 5]}], "gestures": [\#(item)]"#, valid: valid)
    }

    static let all: [Agreement] =
      manifests + ids + paths + numbers + pairs + settings + stamps + gestures + touches

    static let manifests: [Agreement] = [
      Agreement(name: "the smallest manifest", json: #"{"version": 1, "jobs": []}"#, valid: true),
      Agreement(name: "version written 1.0", json: #"{"version": 1.0, "jobs": []}"#, valid: true),
      Agreement(name: "version as a string", json: #"{"version": "1", "jobs": []}"#, valid: false),
      Agreement(name: "no version", json: #"{"jobs": []}"#, valid: false),
      Agreement(name: "no jobs", json: #"{"version": 1}"#, valid: false),
      Agreement(name: "jobs not an array", json: #"{"version": 1, "jobs": {}}"#, valid: false),
      Agreement(name: "a manifest that is an array", json: #"[{"version": 1, "jobs": []}]"#, valid: false),
      Agreement(name: "an unknown top-level key", json: #"{"version": 1, "jobs": [], "job": []}"#, valid: false),
      Agreement(
        name: "defaults with a view and settings",
        json: #"{"version": 1, "defaults": {"view": {"width": 390, "height": 844}, "settings": {"quality": 80}},"#
          + #" "jobs": [{"base": "p.jpg"}]}"#, valid: true),
      Agreement(
        name: "an unknown key in defaults", json: #"{"version": 1, "defaults": {"zoom": 2}, "jobs": []}"#,
        valid: false),
      Agreement(name: "a job that is a string", json: #"{"version": 1, "jobs": ["p.jpg"]}"#, valid: false),
      Agreement(name: "a job without a base", json: #"{"version": 1, "jobs": [{"id": "a"}]}"#, valid: false),
      job("a job with only a base", "", valid: true),
      job("overlay true", #""overlay": true"#, valid: true),
      job("overlay as 1", #""overlay": 1"#, valid: false),
    ]

    static let ids: [Agreement] = [
      job("a string id", #""id": "a""#, valid: true),
      job("an integer id", #""id": 7"#, valid: true),
      job("an integer id written 7.0", #""id": 7.0"#, valid: true),
      job("a negative integer id", #""id": -3"#, valid: true),
      job("a fractional id", #""id": 1.5"#, valid: false),
      job("an empty id", #""id": """#, valid: false),
      job("a boolean id", #""id": true"#, valid: false),
      job("an id at the decoder's integer limit", #""id": 9000000000000000"#, valid: true),
      job("an id beyond the decoder's integer limit", #""id": 1e16"#, valid: false),
    ]

    static let paths: [Agreement] = [
      Agreement(name: "an empty base", json: #"{"version": 1, "jobs": [{"base": "", "id": "a"}]}"#, valid: false),
      Agreement(
        name: "a base holding a nul character", json: #"{"version": 1, "jobs": [{"base": "p\u0000.jpg"}]}"#,
        valid: false),
      job("an id holding a nul character", #""id": "a\u0000b", "output": "o.jpg""#, valid: false),
      job("an output in a folder", #""output": "a/b.jpg""#, valid: true),
      job("an output with a dot folder", #""output": "./a/b.jpg""#, valid: true),
      job("an absolute output", #""output": "/tmp/x.jpg""#, valid: false),
      job("an output that climbs out", #""output": "a/../../x.jpg""#, valid: false),
      job("an output named ..", #""output": "..""#, valid: false),
      job("an output that names a folder", #""output": "a/""#, valid: false),
      job("an output of .", #""output": ".""#, valid: false),
      job("a viewOutput ending in /.", #""viewOutput": "a/.""#, valid: false),
      job("an empty output", #""output": """#, valid: false),
    ]

    static let numbers: [Agreement] = [
      job("a view at the upper bound", #""view": {"width": 1000000, "height": 16}"#, valid: true),
      job("a view past the upper bound", #""view": {"width": 1000001, "height": 16}"#, valid: false),
      job("a view at the lower bound", #""view": {"width": 16, "height": 16}"#, valid: true),
      job("a view too small to draw", #""view": {"width": 15.99, "height": 16}"#, valid: false),
      job("a view of 1 x 1", #""view": {"width": 1, "height": 1}"#, valid: false),
      job("a view of width 0", #""view": {"width": 0, "height": 16}"#, valid: false),
      job("an infinite width", #""view": {"width": 1e999, "height": 16}"#, valid: false),
      job("a view without height", #""view": {"width": 16}"#, valid: false),
      job("screenScale 16", #""view": {"width": 16, "height": 16, "screenScale": 16}"#, valid: true),
      job("screenScale 17", #""view": {"width": 16, "height": 16, "screenScale": 17}"#, valid: false),
      job("a width of true", #""view": {"width": true, "height": 16}"#, valid: false),
    ]

    static let pairs: [Agreement] = [
      job("a point with one number", #""gestures": [{"tap": {"at": [1]}}]"#, valid: false),
      job("a point with three numbers", #""gestures": [{"tap": {"at": [1, 2, 3]}}]"#, valid: false),
      job("a point with a string", #""gestures": [{"tap": {"at": ["1", 2]}}]"#, valid: false),
      job("a point that is an object", #""gestures": [{"tap": {"at": {"x": 1, "y": 2}}}]"#, valid: false),
      job("a range from 0 (exclusive minimum)", #""settings": {"scaleRange": [0, 2]}"#, valid: false),
      job("a range of one value", #""settings": {"scaleRange": [1, 1]}"#, valid: true),
    ]

    static let settings: [Agreement] = [
      job(
        "every setting",
        #""settings": {"scaleRange": [0.5, 2], "zoomRange": [1, 4], "doubleTap": "toggle", "zoomStep": 1.5,"#
          + #" "tapMaxDuration": 0.5, "tapSlop": 10, "pinchSlop": 10, "doubleTapInterval": 0.35,"#
          + #" "doubleTapDistance": 40,"#
          + #" "quality": 90}"#, valid: true),
      job("quality 1", #""settings": {"quality": 1}"#, valid: true),
      job("quality 0", #""settings": {"quality": 0}"#, valid: false),
      job("quality 90.5", #""settings": {"quality": 90.5}"#, valid: false),
      job("quality true", #""settings": {"quality": true}"#, valid: false),
      job("an unknown double-tap mode", #""settings": {"doubleTap": "zoom"}"#, valid: false),
      job("a setting outside settings", #""quality": 90"#, valid: false),
      job("tapMaxDuration 0 (exclusive minimum)", #""settings": {"tapMaxDuration": 0}"#, valid: false),
      job("doubleTapInterval 0", #""settings": {"doubleTapInterval": 0}"#, valid: true),
    ]

    static let stamps: [Agreement] = [
      job(
        "a stamp with every key",
        #""stamps": [{"id": 1, "image": "s.png", "center": [1, 2], "width": 9, "scale": 2, "rotation": -30,"#
          + #" "locked": true}]"#, valid: true),
      job("a stamp without a center", #""stamps": [{"id": "s", "image": "s.png"}]"#, valid: false),
      job("a stamp without an id", #""stamps": [{"image": "s.png", "center": [1, 2]}]"#, valid: false),
      job(
        "a stamp of scale 0", #""stamps": [{"id": "s", "image": "s.png", "center": [1, 2], "scale": 0}]"#,
        valid: false),
      job(
        "a stamp locked \"yes\"",
        #""stamps": [{"id": "s", "image": "s.png", "center": [1, 2], "locked": "yes"}]"#, valid: false),
      job("a stamp with an empty image", #""stamps": [{"id": "s", "image": "", "center": [1, 2]}]"#, valid: false),
      job("stamps not an array", #""stamps": {"id": "s", "image": "s.png", "center": [1, 2]}"#, valid: false),
    ]

    static let gestures: [Agreement] = [
      gesture("a tap", #"{"tap": {"at": [1, 2]}}"#, valid: true),
      gesture(
        "a double tap and a two-finger tap", #"{"doubleTap": {"at": [1, 2]}}, {"twoFingerTap": {"at": [3, 4]}}"#,
        valid: true),
      gesture("a tap without at", #"{"tap": {}}"#, valid: false),
      gesture("a tap with an extra key", #"{"tap": {"at": [1, 2], "on": "s"}}"#, valid: false),
      gesture("an empty gesture item", #"{}"#, valid: false),
      gesture("an unknown kind of gesture", #"{"swipe": {"at": [1, 2]}}"#, valid: false),
      gesture("a gesture item that is an array", #"[{"tap": {"at": [1, 2]}}]"#, valid: false),
      gesture("a pinch on a stamp", #"{"pinch": {"on": "s", "scale": 2, "rotation": 45, "steps": 3}}"#, valid: true),
      gesture("a pinch at a point", #"{"pinch": {"at": [1, 2], "duration": 1}}"#, valid: true),
      gesture("a pinch with neither on nor at", #"{"pinch": {"scale": 2}}"#, valid: false),
      gesture("a pinch with both on and at", #"{"pinch": {"on": "s", "at": [1, 2]}}"#, valid: false),
      gesture("a pinch of 0 steps", #"{"pinch": {"on": "s", "steps": 0}}"#, valid: false),
      gesture("a pinch of 2.5 steps", #"{"pinch": {"on": "s", "steps": 2.5}}"#, valid: false),
      gesture("a pinch of scale 1001", #"{"pinch": {"on": "s", "scale": 1001}}"#, valid: false),
      gesture("a drag from a stamp", #"{"drag": {"on": "s", "by": [10, 0]}}"#, valid: true),
      gesture("a drag from a point", #"{"drag": {"from": [0, 0], "by": [10, 0], "steps": 5}}"#, valid: true),
      gesture("a drag without by", #"{"drag": {"from": [0, 0]}}"#, valid: false),
      gesture("a drag of duration 3601", #"{"drag": {"on": "s", "by": [1, 1], "duration": 3601}}"#, valid: false),
    ]

    /// `{"touches": [...]}` with these samples.
    static func trace(_ name: String, _ samples: String, valid: Bool) -> Agreement {
      gesture(name, #"{"touches": [\#(samples)]}"#, valid: valid)
    }

    static let down = #"{"t": 0, "id": 0, "phase": "began", "x": 1, "y": 2}"#
    static let up = #"{"t": 0.1, "id": 0, "phase": "ended", "x": 1, "y": 2}"#

    static let touches: [Agreement] = [
      trace("a recorded tap", down + ", " + up, valid: true),
      trace("an empty trace", "", valid: true),
      trace("a sample without a phase", #"{"t": 0, "id": 0, "x": 1, "y": 2}, "# + up, valid: false),
      trace("an unknown phase", #"{"t": 0, "id": 0, "phase": "moving", "x": 1, "y": 2}, "# + up, valid: false),
      trace(
        "a sample with an extra key", #"{"t": 0, "id": 0, "phase": "began", "x": 1, "y": 2, "p": 1}, "# + up,
        valid: false),
      trace("a fractional touch id", #"{"t": 0, "id": 0.5, "phase": "began", "x": 1, "y": 2}"#, valid: false),
      trace("a negative time", #"{"t": -1, "id": 0, "phase": "began", "x": 1, "y": 2}"#, valid: false),
      trace("a sample that is an array", "[0, 0, \"began\", 1, 2]", valid: false),
      gesture("touches not an array", #"{"touches": {"t": 0}}"#, valid: false),
    ]
  }

  @Test(arguments: Agreement.all)
  func theSchemaAndTheDecoderGiveTheSameVerdict(agreement: Agreement) throws {
    let failures = try Self.validator().validate(Self.parse(agreement.json))
    let decoderVerdict = Self.decoderAccepts(agreement.json)
    #expect(decoderVerdict == agreement.valid, "the case itself is not what its name says")
    #expect(failures.isEmpty == decoderVerdict, "schema: \(failures.isEmpty ? "valid" : "\(failures)")")
  }

  // MARK: What only the decoder can check

  /// Manifests the schema accepts and the decoder rejects, because JSON Schema has no way to say why. Listed so that
  /// the limits are written down, and so that this test fails (and the list shrinks) if the schema learns one.
  static let beyondTheSchema: [Agreement] = [
    // Comparing two values of one instance (min <= max) is not something any 2020-12 keyword does.
    Agreement.job("a range whose min is above its max", #""settings": {"zoomRange": [4, 1]}"#, valid: false),
    // `uniqueItems` compares whole items; nothing makes one key unique across the items of an array.
    Agreement.job(
      "two stamps with one id",
      #""stamps": [{"id": "s", "image": "a.png", "center": [1, 2]}, {"id": "s", "image": "b.png", "center": [1, 2]}]"#,
      valid: false),
    Agreement(
      name: "two jobs with one id",
      json: #"{"version": 1, "jobs": [{"id": "a", "base": "p.jpg"}, {"id": "a", "base": "q.jpg", "output": "q.jpg"}]}"#,
      valid: false),
    Agreement(
      name: "two jobs writing one file",
      json: #"{"version": 1, "jobs": [{"base": "p.jpg", "output": "o.jpg"}, {"base": "q.jpg", "output": "o.jpg"}]}"#,
      valid: false),
    // References between values (a gesture naming a stamp of its job) are outside JSON Schema.
    Agreement.gesture("a pinch on a stamp the job does not have", #"{"pinch": {"on": "t"}}"#, valid: false),
    // Order across array items (time going backwards, a finger lifted before it went down) is semantic.
    Agreement.trace(
      "time going backwards", #"{"t": 0.5, "id": 0, "phase": "began", "x": 1, "y": 2}, "# + Agreement.up,
      valid: false),
    Agreement.trace("a finger lifted that never went down", Agreement.up, valid: false),
    // The default output is derived from the id (`<id>.jpg`); checking it would take an if/then over two keys,
    // which the table-driven generator does not emit.
    Agreement.job("an id whose default output climbs out", #""id": "../x""#, valid: false),
  ]
  // Also left to the decoder, and not listed because they need large documents: `Limits` (at most 1000
  // stamps and a million touch events per job, 64 levels of nesting, 64 MiB), which callers may change; and repeated
  // keys in one object, which JSON Schema's data model cannot even represent (the parser here rejects them).

  @Test(arguments: beyondTheSchema)
  func whatOnlyTheDecoderChecksTheSchemaAccepts(agreement: Agreement) throws {
    let failures = try Self.validator().validate(Self.parse(agreement.json))
    #expect(failures.isEmpty, "the schema now catches this: move it to Agreement.all. \(failures)")
    #expect(!Self.decoderAccepts(agreement.json))
  }
}
