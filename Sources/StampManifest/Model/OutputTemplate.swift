/// The placeholders of a job over many photos' `output` and `viewOutput`: `{dir}` (the photo's folder relative to
/// the photos' root, empty at the root), `{name}` (its file name), `{stem}` (the name up to its last `.`), `{ext}`
/// (what follows that `.`, empty when none), `{index}` (its place in the job's photos, from 0). `{{` and `}}` are
/// braces. Worked on bytes, as every path is.
package enum OutputTemplate {
  /// The placeholders, in the order the help lists them.
  package static let placeholders = ["dir", "stem", "ext", "name", "index"]
  /// A job over many photos' output when it gives none: the photos' tree under `--out`, as JPEG.
  package static let defaultOutput = "{dir}/{stem}.jpg"
  /// The placeholders that differ between two photos of one folder: a template needs one of them.
  package static let varying: Set<String> = ["stem", "name", "index"]

  /// What is wrong with a template's braces.
  struct Refusal: Error {
    let message: String
  }

  /// A template's parts: literal bytes and placeholders.
  enum Part: Equatable {
    case text(String)
    case placeholder(String)
  }

  /// Why `template` is not a usable output template for a job over many photos, or nil.
  package static func problem(in template: String) -> String? {
    switch parts(of: template) {
    case .failure(let refusal): return refusal.message
    case .success(let parts):
      let names = parts.compactMap { if case .placeholder(let name) = $0 { name } else { nil } }
      if !names.contains(where: varying.contains) {
        return "\"\(template)\" gives every photo of a folder the same file: use {stem}, {name} or {index} in it"
      }
      return nil
    }
  }

  /// `template` with its placeholders filled for the photo at `photo` (relative to the photos' root) and `index`.
  /// A template `problem(in:)` refuses is returned as it is.
  package static func fill(_ template: String, photo: String, index: Int) -> String {
    guard case .success(let parts) = parts(of: template) else { return template }
    let bytes = photo.utf8
    let slash = bytes.lastIndex(of: PathRules.slash)
    let dir = slash.map { String(decoding: bytes[..<$0], as: UTF8.self) } ?? ""
    let nameBytes = slash.map { bytes[bytes.index(after: $0)...] } ?? bytes[...]
    let name = String(decoding: nameBytes, as: UTF8.self)
    var stem = name
    var ext = ""
    if let dot = nameBytes.lastIndex(of: UInt8(ascii: ".")), dot > nameBytes.startIndex {
      stem = String(decoding: nameBytes[..<dot], as: UTF8.self)
      ext = String(decoding: nameBytes[nameBytes.index(after: dot)...], as: UTF8.self)
    }
    let values = ["dir": dir, "name": name, "stem": stem, "ext": ext, "index": String(index)]
    return parts.map { part in
      switch part {
      case .text(let text): return text
      case .placeholder(let key): return values[key] ?? ""
      }
    }.joined()
  }

  /// The parts of `template`, or what is wrong with its braces.
  static func parts(of template: String) -> Result<[Part], Refusal> {
    let bytes = Array(template.utf8)
    var parts: [Part] = []
    var text: [UInt8] = []
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      let next = i + 1 < bytes.count ? bytes[i + 1] : nil
      let doubled = (b == UInt8(ascii: "{") || b == UInt8(ascii: "}")) && next == b
      if doubled {
        text.append(b)
        i += 2
        continue
      }
      if b == UInt8(ascii: "}") {
        return .failure(Refusal(message: "\"\(template)\": a '}' with no '{' before it (write '}}' for one)"))
      }
      guard b == UInt8(ascii: "{") else {
        text.append(b)
        i += 1
        continue
      }
      guard let close = bytes[(i + 1)...].firstIndex(of: UInt8(ascii: "}")) else {
        return .failure(Refusal(message: "\"\(template)\": a '{' with no '}' after it (write '{{' for one)"))
      }
      let key = String(decoding: bytes[(i + 1)..<close], as: UTF8.self)
      guard placeholders.contains(key) else {
        let known = placeholders.map { "{\($0)}" }.joined(separator: ", ")
        return .failure(Refusal(message: "\"\(template)\": unknown placeholder {\(key)} (expected one of: \(known))"))
      }
      if !text.isEmpty { parts.append(.text(String(decoding: text, as: UTF8.self))) }
      text.removeAll()
      parts.append(.placeholder(key))
      i = close + 1
    }
    if !text.isEmpty { parts.append(.text(String(decoding: text, as: UTF8.self))) }
    return .success(parts)
  }
}
