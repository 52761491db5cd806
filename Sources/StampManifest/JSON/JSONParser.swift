/// A strict RFC 8259 JSON parser that remembers the line and column where each value starts.
///
/// Foundation's `JSONSerialization` gives no positions, and a manifest's errors must name lines. The parser is
/// recursive descent over raw bytes, bounded by `maxDepth` so that hostile nesting (`[[[[...`) is an error rather
/// than a stack overflow, and by `maxBytes` so that an oversized document is refused before any work. It accepts
/// exactly RFC 8259 (no comments, no trailing commas, no `NaN`, UTF-8 only); a leading UTF-8 byte order mark is
/// skipped, as the RFC allows.
package struct JSONParser: Sendable {
  /// What to do when an object repeats a key.
  package enum DuplicateKeys: Sendable {
    /// Fail the parse at the repeated key.
    case reject
    /// Keep every member, so that the caller can report the repeat with a JSON path.
    case keep
  }

  /// The deepest nesting of arrays and objects accepted.
  package var maxDepth: Int
  /// The largest document accepted, in bytes.
  package var maxBytes: Int
  /// What to do when an object repeats a key.
  package var duplicateKeys: DuplicateKeys

  /// Creates a parser; the defaults (64 levels, 64 MiB, repeated keys rejected) suit manifests.
  package init(maxDepth: Int = 64, maxBytes: Int = 64 << 20, duplicateKeys: DuplicateKeys = .reject) {
    self.maxDepth = maxDepth
    self.maxBytes = maxBytes
    self.duplicateKeys = duplicateKeys
  }

  /// Parses one JSON document; `file` names it in the error.
  ///
  /// - Throws: `ManifestError` with one diagnostic giving the line and column of the first syntax error.
  package func parse(_ bytes: UnsafeRawBufferPointer, file: String = "<json>") throws(ManifestError) -> JSONValue {
    do {
      return try parseOrFail(bytes)
    } catch {
      throw ManifestError(file: file, line: error.line, column: error.column, message: error.message)
    }
  }

  /// Parses one JSON document held in an array of bytes; `file` names it in the error.
  ///
  /// - Throws: `ManifestError` with one diagnostic giving the line and column of the first syntax error.
  package func parse(_ bytes: [UInt8], file: String = "<json>") throws(ManifestError) -> JSONValue {
    let result = bytes.withUnsafeBytes { raw in
      Result { () throws(ManifestError) -> JSONValue in try parse(raw, file: file) }
    }
    return try result.get()
  }

  /// Parses one JSON document held in a string; `file` names it in the error.
  ///
  /// - Throws: `ManifestError` with one diagnostic giving the line and column of the first syntax error.
  package func parse(_ text: String, file: String = "<json>") throws(ManifestError) -> JSONValue {
    try parse(Array(text.utf8), file: file)
  }

  func parseOrFail(_ bytes: UnsafeRawBufferPointer) throws(JSONParseFailure) -> JSONValue {
    if bytes.count > maxBytes {
      throw JSONParseFailure(
        message: "document is \(bytes.count) bytes, larger than the limit of \(maxBytes) bytes", line: 1, column: 1)
    }
    guard let base = bytes.baseAddress, !bytes.isEmpty else {
      throw JSONParseFailure(message: "invalid json: the document is empty", line: 1, column: 1)
    }
    var scanner = JSONScanner(
      bytes: base, count: bytes.count, maxDepth: maxDepth,
      keepDuplicates: duplicateKeys == .keep)
    return try scanner.document()
  }
}

/// A syntax error at a position; turned into a `ManifestError` at the module's boundary.
struct JSONParseFailure: Error {
  var message: String
  var line: Int
  var column: Int
}
