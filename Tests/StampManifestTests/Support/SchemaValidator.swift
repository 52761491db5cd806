import Foundation

@testable import StampManifest

/// A JSON Schema (draft 2020-12) validator for exactly the keywords `ManifestSchema` uses, and no others.
///
/// It is small so that it can be read in one sitting and trusted. Anything outside that set (an unknown keyword, a
/// `$ref` outside `#/$defs`, a schema-valued `additionalProperties`, a boolean schema) throws `Unsupported` instead
/// of being skipped: a schema that grows a keyword cannot pass these tests by being half understood.
struct SchemaValidator {
  /// Why an instance fails: where in the instance (a JSON Pointer), which keyword, and in words.
  struct Failure: Equatable, CustomStringConvertible {
    let at: String
    let keyword: String
    let message: String

    var description: String { "\(at.isEmpty ? "(root)" : at): \(keyword): \(message)" }
  }

  /// A schema this validator cannot judge; the test that meets one fails.
  struct Unsupported: Error, CustomStringConvertible {
    let location: String
    let reason: String

    var description: String { "\(location): \(reason)" }
  }

  static let draft = "https://json-schema.org/draft/2020-12/schema"
  static let typeNames: Set<String> = ["null", "boolean", "object", "array", "number", "string", "integer"]
  /// Keywords that only annotate or hold subschemas; they assert nothing about an instance.
  static let annotations: Set<String> = ["$schema", "title", "description", "$defs"]

  let root: JSONValue

  /// Checks, before any instance is seen, that every keyword anywhere in `schema` is one this validator knows.
  init(_ schema: JSONValue) throws {
    guard schema["$schema"]?.kind == .string(Self.draft) else {
      throw Unsupported(location: "#", reason: "not a draft 2020-12 schema")
    }
    root = schema
    try audit(schema, "#")
  }

  /// Every failure of `instance` against the schema; empty when it is valid.
  func validate(_ instance: JSONValue) throws -> [Failure] {
    try failures(instance, root, at: "")
  }

  // MARK: Reading the schema

  private func audit(_ schema: JSONValue, _ location: String) throws {
    guard case .object(let keywords) = schema.kind else {
      throw Unsupported(location: location, reason: "a schema that is not an object")
    }
    for keyword in keywords {
      let argument = keyword.value
      let here = location + "/" + keyword.key
      switch keyword.key {
      case "$schema", "title", "description", "enum", "const": break
      case "$defs", "properties":
        for member in try objectArgument(argument, here) { try audit(member.value, here + "/" + member.key) }
      case "items", "not": try audit(argument, here)
      case "prefixItems", "oneOf":
        for (i, item) in try arrayArgument(argument, here).enumerated() { try audit(item, here + "/\(i)") }
      case "type":
        for name in try typeArgument(argument, here) where !Self.typeNames.contains(name) {
          throw Unsupported(location: here, reason: "unknown type \"\(name)\"")
        }
      case "required": _ = try stringsArgument(argument, here)
      case "additionalProperties":
        guard case .bool = argument.kind else { throw Unsupported(location: here, reason: "only true or false") }
      case "minItems", "maxItems", "minProperties", "maxProperties", "minLength", "minimum", "maximum",
        "exclusiveMinimum":
        _ = try numberArgument(argument, here)
      case "pattern": _ = try regex(argument, here)
      case "$ref": _ = try resolve(argument, here)
      default: throw Unsupported(location: here, reason: "unknown keyword \"\(keyword.key)\"")
      }
    }
  }

  private func objectArgument(_ v: JSONValue, _ location: String) throws -> [JSONMember] {
    guard case .object(let members) = v.kind else { throw Unsupported(location: location, reason: "not an object") }
    return members
  }

  private func arrayArgument(_ v: JSONValue, _ location: String) throws -> [JSONValue] {
    guard case .array(let items) = v.kind else { throw Unsupported(location: location, reason: "not an array") }
    return items
  }

  private func numberArgument(_ v: JSONValue, _ location: String) throws -> Double {
    guard case .number(let x) = v.kind else { throw Unsupported(location: location, reason: "not a number") }
    return x
  }

  private func stringsArgument(_ v: JSONValue, _ location: String) throws -> [String] {
    try arrayArgument(v, location).map { item in
      guard case .string(let s) = item.kind else { throw Unsupported(location: location, reason: "not a string") }
      return s
    }
  }

  private func typeArgument(_ v: JSONValue, _ location: String) throws -> [String] {
    if case .string(let name) = v.kind { return [name] }
    return try stringsArgument(v, location)
  }

  private func regex(_ v: JSONValue, _ location: String) throws -> NSRegularExpression {
    guard case .string(let pattern) = v.kind, let regex = try? NSRegularExpression(pattern: pattern) else {
      throw Unsupported(location: location, reason: "not a pattern this validator can compile")
    }
    return regex
  }

  /// `#/$defs/name`, the only kind of reference the schema makes.
  private func resolve(_ v: JSONValue, _ location: String) throws -> JSONValue {
    let prefix = "#/$defs/"
    guard case .string(let ref) = v.kind, ref.hasPrefix(prefix) else {
      throw Unsupported(location: location, reason: "only #/$defs/... references")
    }
    let name = String(ref.dropFirst(prefix.count))
    guard !name.contains("/"), !name.contains("~"), let target = root["$defs"]?[name] else {
      throw Unsupported(location: location, reason: "cannot resolve \(ref)")
    }
    return target
  }

  // MARK: Judging an instance

  private func failures(_ v: JSONValue, _ schema: JSONValue, at path: String) throws -> [Failure] {
    guard case .object(let keywords) = schema.kind else {
      throw Unsupported(location: path, reason: "a schema that is not an object")
    }
    var found: [Failure] = []
    for keyword in keywords {
      found += try failures(v, keyword.key, keyword.value, in: schema, at: path)
    }
    return found
  }

  // One switch over every keyword keeps what the validator knows in one place.
  private func failures(_ v: JSONValue, _ keyword: String, _ argument: JSONValue, in schema: JSONValue, at path: String)
    throws -> [Failure]
  {
    func fail(_ message: String) -> [Failure] { [Failure(at: path, keyword: keyword, message: message)] }
    switch keyword {
    case _ where Self.annotations.contains(keyword):
      return []
    case "type":
      let names = try typeArgument(argument, path)
      if names.contains(where: { Self.instance(v, is: $0) }) { return [] }
      return fail("expected \(names.joined(separator: " or ")), found \(v.typeName)")
    case "properties":
      guard case .object(let members) = v.kind else { return [] }
      let properties = try objectArgument(argument, path)
      var found: [Failure] = []
      for member in members {
        guard let property = properties.first(where: { $0.key == member.key }) else { continue }
        found += try failures(member.value, property.value, at: path + "/" + Self.pointer(member.key))
      }
      return found
    case "additionalProperties":
      guard case .bool(false) = argument.kind, case .object(let members) = v.kind else { return [] }
      let known = Set(
        try objectArgument(schema["properties"] ?? JSONValue(.object([]), line: 1, column: 1), path)
          .map(\.key))
      return members.filter { !known.contains($0.key) }.flatMap { fail("unknown key \"\($0.key)\"") }
    case "required":
      guard case .object(let members) = v.kind else { return [] }
      let present = Set(members.map(\.key))
      return try stringsArgument(argument, path).filter { !present.contains($0) }.flatMap { fail("missing \"\($0)\"") }
    case "minProperties", "maxProperties":
      guard case .object(let members) = v.kind else { return [] }
      let bound = try numberArgument(argument, path)
      let ok = keyword == "minProperties" ? Double(members.count) >= bound : Double(members.count) <= bound
      return ok ? [] : fail("\(members.count) keys, \(keyword) is \(format(bound))")
    case "prefixItems":
      guard case .array(let items) = v.kind else { return [] }
      var found: [Failure] = []
      for (i, (item, sub)) in zip(items, try arrayArgument(argument, path)).enumerated() {
        found += try failures(item, sub, at: path + "/\(i)")
      }
      return found
    case "items":
      guard case .array(let items) = v.kind else { return [] }
      // In 2020-12 `items` covers only what `prefixItems` does not.
      let skipped = schema["prefixItems"].map { (try? arrayArgument($0, path).count) ?? 0 } ?? 0
      var found: [Failure] = []
      for (i, item) in items.enumerated() where i >= skipped {
        found += try failures(item, argument, at: path + "/\(i)")
      }
      return found
    case "minItems", "maxItems":
      guard case .array(let items) = v.kind else { return [] }
      let bound = try numberArgument(argument, path)
      let ok = keyword == "minItems" ? Double(items.count) >= bound : Double(items.count) <= bound
      return ok ? [] : fail("\(items.count) items, \(keyword) is \(format(bound))")
    case "enum":
      if try arrayArgument(argument, path).contains(where: { Self.equal($0, v) }) { return [] }
      return fail("not one of the listed values")
    case "const":
      return Self.equal(argument, v) ? [] : fail("not the constant")
    case "minimum", "maximum", "exclusiveMinimum":
      guard case .number(let x) = v.kind else { return [] }
      let bound = try numberArgument(argument, path)
      let ok = keyword == "minimum" ? x >= bound : keyword == "maximum" ? x <= bound : x > bound
      return ok ? [] : fail("\(format(x)) is outside \(keyword) \(format(bound))")
    case "minLength":
      guard case .string(let s) = v.kind else { return [] }
      // Lengths are counted in code points, not in Swift's grapheme clusters.
      let ok = Double(s.unicodeScalars.count) >= (try numberArgument(argument, path))
      return ok ? [] : fail("too short")
    case "pattern":
      guard case .string(let s) = v.kind else { return [] }
      // Patterns are not anchored: a match anywhere in the string counts.
      let found = try regex(argument, path).firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
      return found ? [] : fail("does not match \(argument.kind)")
    case "oneOf":
      let alternatives = try arrayArgument(argument, path)
      let matching = try alternatives.filter { try failures(v, $0, at: path).isEmpty }.count
      return matching == 1 ? [] : fail("matches \(matching) of \(alternatives.count) alternatives, not exactly one")
    case "not":
      return try failures(v, argument, at: path).isEmpty ? fail("matches a schema it must not match") : []
    case "$ref":
      return try failures(v, resolve(argument, path), at: path)
    default:
      throw Unsupported(location: path, reason: "unknown keyword \"\(keyword)\"")
    }
  }

  /// JSON Schema's types; a boolean is never a number, and an integer is any finite number without a fraction.
  static func instance(_ v: JSONValue, is type: String) -> Bool {
    switch (type, v.kind) {
    case ("null", .null), ("boolean", .bool), ("object", .object), ("array", .array), ("number", .number),
      ("string", .string):
      return true
    case ("integer", .number(let x)): return x.isFinite && x == x.rounded()
    default: return false
    }
  }

  /// JSON equality: numbers by value, strings by code points, objects regardless of key order, positions ignored.
  static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a.kind, b.kind) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.number(let x), .number(let y)): return x == y
    case (.string(let x), .string(let y)): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
    case (.object(let x), .object(let y)):
      return x.count == y.count && x.allSatisfy { m in y.contains { $0.key == m.key && equal($0.value, m.value) } }
    default: return false
    }
  }

  /// A key as a JSON Pointer token.
  static func pointer(_ key: String) -> String {
    key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
  }
}
