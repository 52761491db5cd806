import StampCore

/// Changes one job of a manifest's text and leaves every other byte as it was: the job's `gestures` replaced (or
/// added after its last member), or a new job added after the last one. For a JSON Lines manifest the job's line
/// is changed, or a line added.
///
/// ```swift
/// let text = try ManifestSplice.replacingGestures(of: "cat", with: items, in: bytes, format: .json, file: path)
/// ```
package enum ManifestSplice {
  /// `bytes` with the `gestures` of the job `id` set to `items`.
  ///
  /// - Throws: `ManifestError` when `bytes` is not a manifest or has no job with that id.
  package static func replacingGestures(
    of id: String, with items: [GestureItem], in bytes: [UInt8], format: ManifestFormat, file: String
  ) throws(ManifestError) -> [UInt8] {
    let parser = JSONParser(duplicateKeys: .keep)
    let writer = ManifestWriter()
    let gestures = JSONText.array(items.map(writer.gesture))
    guard format == .json else {
      // One job a line: the line whose object has the id (or whose place among the jobs is the id).
      var start = 0
      var index = 0
      while start < bytes.count {
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        let line = Array(bytes[start..<end])
        if let job = try? parser.parse(line, file: file), job["jobs"] == nil, job["base"] != nil {
          if Self.id(of: job, index: index) == id {
            let changed = try splice(gestures, into: job, in: line, oneLine: true, file: file)
            return Array(bytes[..<start]) + changed + Array(bytes[end...])
          }
          index += 1
        }
        start = end + 1
      }
      throw ManifestError(file: file, message: "no job with id '\(id)'")
    }
    let root = try parser.parse(bytes, file: file)
    guard case .array(let jobs)? = root["jobs"]?.kind else {
      throw ManifestError(file: file, message: "no \"jobs\" list")
    }
    for (index, job) in jobs.enumerated() where Self.id(of: job, index: index) == id {
      let span = try parser.span(of: job, in: bytes, file: file)
      let text = Array(bytes[span])
      let changed = try splice(gestures, into: try parser.parse(text, file: file), in: text, oneLine: false, file: file)
      return Array(bytes[..<span.lowerBound]) + changed + Array(bytes[span.upperBound...])
    }
    throw ManifestError(file: file, message: "no job with id '\(id)'")
  }

  /// `bytes` with `job` added after the manifest's last job (for JSON Lines, on a line of its own at the end).
  ///
  /// - Throws: `ManifestError` when `bytes` is not a JSON manifest with a `jobs` list.
  package static func appending(_ job: JobEntry, to bytes: [UInt8], format: ManifestFormat, file: String)
    throws(ManifestError) -> [UInt8]
  {
    let writer = ManifestWriter()
    guard format == .json else {
      let newline = bytes.last.map { $0 == UInt8(ascii: "\n") ? [] : [UInt8(ascii: "\n")] } ?? []
      return bytes + newline + Array((writer.jsonLine(job) + "\n").utf8)
    }
    let parser = JSONParser(duplicateKeys: .keep)
    let root = try parser.parse(bytes, file: file)
    guard let list = root["jobs"], case .array(let jobs) = list.kind else {
      throw ManifestError(file: file, message: "no \"jobs\" list")
    }
    guard let last = jobs.last else {
      let span = try parser.span(of: list, in: bytes, file: file)
      let text = "[\n    " + writer.job(job).pretty(indent: 4) + "\n  ]"
      return Array(bytes[..<span.lowerBound]) + Array(text.utf8) + Array(bytes[span.upperBound...])
    }
    let end = try parser.span(of: last, in: bytes, file: file).upperBound
    let indent = last.column - 1
    let text = ",\n" + String(repeating: " ", count: indent) + writer.job(job).pretty(indent: indent)
    return Array(bytes[..<end]) + Array(text.utf8) + Array(bytes[end...])
  }

  /// A job object's id: its `id` member, or its place among the jobs when it has none (as the decoder names it).
  private static func id(of job: JSONValue, index: Int) -> String {
    if case .string(let id)? = job["id"]?.kind { return id }
    return String(index)
  }

  /// The job object's text `text` with its `gestures` member's value replaced by `gestures`, or the member added
  /// after the last one.
  private static func splice(_ gestures: JSONText, into job: JSONValue, in text: [UInt8], oneLine: Bool, file: String)
    throws(ManifestError) -> [UInt8]
  {
    let parser = JSONParser(duplicateKeys: .keep)
    guard case .object(let members) = job.kind, let last = members.last else {
      throw ManifestError(file: file, line: job.line, message: "the job is not an object with members")
    }
    if let existing = members.last(where: { $0.key == "gestures" })?.value {
      let span = try parser.span(of: existing, in: text, file: file)
      let body = oneLine ? gestures.inline : gestures.pretty(indent: indentation(of: existing, in: text), lead: 12)
      return Array(text[..<span.lowerBound]) + Array(body.utf8) + Array(text[span.upperBound...])
    }
    let end = try parser.span(of: last.value, in: text, file: file).upperBound
    let added: String
    if oneLine || last.value.line == job.line {
      added = ", \"gestures\": " + gestures.inline
    } else {
      let indent = indentation(of: last.value, in: text)
      added =
        ",\n" + String(repeating: " ", count: indent) + "\"gestures\": " + gestures.pretty(indent: indent, lead: 12)
    }
    return Array(text[..<end]) + Array(added.utf8) + Array(text[end...])
  }

  /// How many spaces open the line `value` starts on.
  private static func indentation(of value: JSONValue, in text: [UInt8]) -> Int {
    var line = 1
    var offset = 0
    while line < value.line, offset < text.count {
      if text[offset] == UInt8(ascii: "\n") { line += 1 }
      offset += 1
    }
    var count = 0
    while offset + count < text.count, text[offset + count] == UInt8(ascii: " ") { count += 1 }
    return count
  }
}
