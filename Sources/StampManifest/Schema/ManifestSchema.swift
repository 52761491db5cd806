/// The manifest's JSON Schema (draft 2020-12), as `stampcam schema` prints it.
///
/// It is generated from the same table (`Shapes`) the decoder checks keys, types and bounds against, so the two
/// cannot drift. What a schema cannot say (a range's min not above its max, stamp ids that exist, ids unique,
/// touch streams in order) only the decoder checks. A JSON Lines manifest's lines are `$defs/job`, or
/// `$defs/linesHeader` for an optional first line.
public enum ManifestSchema {
  /// The schema as pretty-printed JSON.
  public static let json: String = document().rendered() + "\n"

  static func document() -> SchemaNode {
    guard case .object(let manifest) = object(Shapes.manifest) else { return .object([]) }
    var defs: [(String, SchemaNode)] = [
      (
        "identifier",
        .object(
          [("type", .array([.string("string"), .string("integer")])), ("minLength", .number(1)), noNul]
            + limits(.identifier))
      ),
      ("point", pair(NumberBounds.coordinate, "[x, y]")),
      ("range", pair(NumberBounds.factor, "[min, max], min <= max")),
    ]
    for shape in Shapes.all where shape.name != Shapes.manifest.name { defs.append((shape.name, object(shape))) }
    return .object(
      [
        ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
        ("title", .string("stampcam manifest, version 1")),
      ] + manifest + [("$defs", .object(defs))])
  }

  static func object(_ shape: Shape) -> SchemaNode {
    var members: [(String, SchemaNode)] = [
      ("description", .string(shape.summary)), ("type", .string("object")),
      ("properties", .object(shape.fields.map { ($0.name, property($0)) })),
    ]
    let required = shape.fields.filter(\.required).map { SchemaNode.string($0.name) }
    if !required.isEmpty { members.append(("required", .array(required))) }
    members.append(("additionalProperties", .bool(false)))
    if shape.exactlyOneOf.count == shape.fields.count {
      members += [("minProperties", .number(1)), ("maxProperties", .number(1))]
    } else if !shape.exactlyOneOf.isEmpty {
      let alternatives = shape.exactlyOneOf.map { SchemaNode.object([("required", .array([.string($0)]))]) }
      members.append(("oneOf", .array(alternatives)))
    }
    return .object(members)
  }

  static func property(_ field: Field) -> SchemaNode {
    var members: [(String, SchemaNode)] = [("description", .string(field.summary))]
    switch field.type {
    case .string: members += [("type", .string("string")), ("minLength", .number(1)), noNul]
    case .relativePath:
      // Relative, no nul, no `..` component, and naming a file: not ending in `/` or in a `.` component.
      members += [
        ("type", .string("string")), ("minLength", .number(1)), ("pattern", .string("^[^/\\u0000][^\\u0000]*$")),
        ("not", .object([("pattern", .string("(^|/)\\.\\.(/|$)|(^|/)\\.?$"))])),
      ]
    case .identifier: members.append(("$ref", .string("#/$defs/identifier")))
    case .number(let bounds): members += [("type", .string("number"))] + limits(bounds)
    case .integer(let bounds): members += [("type", .string("integer"))] + limits(bounds)
    case .boolean: members.append(("type", .string("boolean")))
    case .point: members.append(("$ref", .string("#/$defs/point")))
    case .range: members.append(("$ref", .string("#/$defs/range")))
    case .choice(let options): members += [("type", .string("string")), ("enum", .array(options.map { .string($0) }))]
    case .constant(let value): members.append(("const", .number(Double(value))))
    case .object(let shape): members.append(("$ref", .string("#/$defs/\(shape.name)")))
    case .array(let shape):
      members += [("type", .string("array")), ("items", .object([("$ref", .string("#/$defs/\(shape.name)"))]))]
    case .stringOr(let shape):
      let text = SchemaNode.object([("type", .string("string")), ("minLength", .number(1)), noNul])
      members.append(("oneOf", .array([text, .object([("$ref", .string("#/$defs/\(shape.name)"))])])))
    }
    return .object(members)
  }

  /// The decoder refuses strings holding a nul character (they would cut a C path short).
  static var noNul: (String, SchemaNode) { ("pattern", .string("^[^\\u0000]*$")) }

  static func limits(_ bounds: NumberBounds) -> [(String, SchemaNode)] {
    [(bounds.minExclusive ? "exclusiveMinimum" : "minimum", .number(bounds.min)), ("maximum", .number(bounds.max))]
  }

  static func pair(_ bounds: NumberBounds, _ summary: String) -> SchemaNode {
    .object([
      ("description", .string(summary)), ("type", .string("array")),
      (
        "prefixItems",
        .array([
          .object([("type", .string("number"))] + limits(bounds)),
          .object([("type", .string("number"))] + limits(bounds)),
        ])
      ),
      ("minItems", .number(2)), ("maxItems", .number(2)),
    ])
  }
}
