/// Walks a parsed manifest against `Shapes`, building the model and collecting every problem with its JSON path.
///
/// Nothing stops at the first problem: each check reports and moves on, and a value that fails comes back nil so
/// that the job it belongs to is dropped while its siblings are still checked.
import StampCore

struct ManifestWalker {
  /// The manifest's name as the user gave it, for diagnostics.
  let file: String
  /// The folder relative paths are resolved against; empty for the current folder.
  let folder: String
  let limits: Limits
  /// Added to every value's line: a JSON Lines job is parsed on its own, so its values think they are on line 1.
  var lineOffset = 0
  /// Every job writes its overlay (`render --overlay`): checked against the other outputs as a job's own is.
  var overlayForEveryJob = false
  var diagnostics: [Diagnostic] = []

  init(file: String, folder: String, limits: Limits) {
    self.file = file
    self.folder = folder
    self.limits = limits
  }

  mutating func report(_ value: JSONValue, _ path: String, _ message: String) {
    diagnostics.append(Diagnostic(file: file, line: value.line + lineOffset, path: path, message: message))
  }

  /// The members of an object of `shape`, after reporting its unknown, repeated and missing keys.
  mutating func members(_ value: JSONValue, _ shape: Shape, _ path: String) -> [JSONMember]? {
    guard case .object(let members) = value.kind else {
      report(value, path, "expected an object, found \(value.typeName)")
      return nil
    }
    var seen = Set<String>(minimumCapacity: members.count)
    for member in members {
      if !seen.insert(member.key).inserted {
        report(member.value, child(path, member.key), "duplicate key")
      } else if shape.field(member.key) == nil {
        report(member.value, child(path, member.key), unknownKey(member.key, in: shape))
      }
    }
    for field in shape.fields where field.required && !seen.contains(field.name) {
      report(value, path, "missing key \"\(field.name)\"")
    }
    let choices = shape.exactlyOneOf
    if choices.count == 2 {
      let present = choices.filter { seen.contains($0) }
      if present.isEmpty { report(value, path, "needs \"\(choices[0])\" or \"\(choices[1])\"") }
      if present.count > 1 { report(value, path, "give \"\(choices[0])\" or \"\(choices[1])\", not both") }
    }
    return members
  }

  /// `unknown key`, with the closest known key when one is near, or the place a misplaced setting belongs.
  func unknownKey(_ key: String, in shape: Shape, noun: String = "key") -> String {
    if let near = Suggestion.closest(to: key, among: shape.keys) {
      return "unknown \(noun) (did you mean \"\(near)\"?)"
    }
    if shape.field("settings") != nil && Shapes.settings.field(key) != nil {
      return "unknown \(noun) (\"\(key)\" is a setting: put it under \"settings\")"
    }
    return "unknown \(noun) (expected one of: \(shape.keys.joined(separator: ", ")))"
  }

  /// The first member named `name`.
  func value(_ members: [JSONMember], _ name: String) -> JSONValue? {
    members.first { $0.key == name }?.value
  }
}

/// `path.key`, or `path["odd key"]` when the key is not an identifier.
func child(_ path: String, _ key: String) -> String {
  func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") || b == 0x5F }
  func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
  if let first = key.utf8.first, isLetter(first), key.utf8.allSatisfy({ isLetter($0) || isDigit($0) }) {
    return path.isEmpty ? key : path + "." + key
  }
  let escaped = key.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"")
  return path + "[\"" + escaped + "\"]"
}

/// `path[i]`.
func element(_ path: String, _ index: Int) -> String {
  path + "[" + String(index) + "]"
}

extension String {
  /// Replaces every occurrence of one character, without Foundation.
  func replacingAll(_ target: Character, with replacement: String) -> String {
    var out = ""
    for c in self {
      if c == target { out += replacement } else { out.append(c) }
    }
    return out
  }
}
