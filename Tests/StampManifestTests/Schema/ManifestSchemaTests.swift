import Testing

@testable import StampManifest

struct ManifestSchemaTests {
  /// The keys the design names for each object, written out by hand.
  static let expectedKeys: [String: [String]] = [
    "manifest": ["version", "defaults", "jobs"],
    "linesHeader": ["version", "defaults"],
    "defaults": ["view", "settings"],
    "job": ["id", "base", "photos", "output", "viewOutput", "view", "stamps", "gestures", "settings", "overlay"],
    "photos": ["glob", "ignoreCase", "list"],
    "view": ["width", "height", "screenScale"],
    "settings": [
      "scaleRange", "zoomRange", "doubleTap", "zoomStep", "tapMaxDuration", "tapSlop", "pinchSlop",
      "doubleTapInterval", "doubleTapDistance", "pinchMoves", "quality",
    ],
    "stamp": ["id", "image", "center", "photoCenter", "width", "photoWidth", "scale", "rotation", "locked"],
    "gesture": ["touches", "tap", "doubleTap", "twoFingerTap", "pinch", "drag"],
    "touch": ["t", "id", "phase", "x", "y"],
    "tapAt": ["at"],
    "pinch": ["on", "at", "scale", "rotation", "duration", "steps"],
    "drag": ["on", "from", "by", "duration", "steps"],
  ]

  func propertyNames(_ object: JSONValue?) -> [String] {
    guard case .object(let members) = object?["properties"]?.kind else { return [] }
    return members.map(\.key)
  }

  func strings(_ array: JSONValue?) -> [String] {
    guard case .array(let items) = array?.kind else { return [] }
    return items.compactMap { if case .string(let s) = $0.kind { s } else { nil } }
  }

  @Test func theSchemaIsValidJSONAndNamesEveryKeyTheDecoderKnows() throws {
    let schema = try JSONParser().parse(ManifestSchema.json, file: "schema.json")
    #expect(schema["$schema"]?.kind == .string("https://json-schema.org/draft/2020-12/schema"))
    #expect(propertyNames(schema) == Self.expectedKeys["manifest"])
    guard case .object(let defs) = schema["$defs"]?.kind else {
      Issue.record("no $defs")
      return
    }
    for (name, keys) in Self.expectedKeys where name != "manifest" {
      let def = defs.first { $0.key == name }?.value
      #expect(propertyNames(def) == keys, "\(name)")
      #expect(def?["additionalProperties"]?.kind == .bool(false), "\(name)")
    }
    for shape in Shapes.all {
      #expect(shape.keys == Self.expectedKeys[shape.name], "the decoder's table for \(shape.name)")
    }
  }

  @Test func requiredKeysAndBoundsComeFromTheDecodersTable() throws {
    let schema = try JSONParser().parse(ManifestSchema.json)
    let stamp = schema["$defs"]?["stamp"]
    #expect(strings(stamp?["required"]) == ["id", "image"])
    #expect(stamp?["properties"]?["scale"]?["minimum"]?.kind == .number(0.001))
    #expect(stamp?["properties"]?["scale"]?["maximum"]?.kind == .number(1000))
    let gesture = schema["$defs"]?["gesture"]
    #expect(gesture?["maxProperties"]?.kind == .number(1) && gesture?["minProperties"]?.kind == .number(1))
    let phase = schema["$defs"]?["touch"]?["properties"]?["phase"]?["enum"]
    #expect(strings(phase) == ["began", "moved", "stationary", "ended", "cancelled"])
  }
}
