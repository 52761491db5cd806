extension JSONParser {
  /// Where a value that `parse` returned lies in `bytes`, the document it came from: from its first byte to just
  /// after its last, found by parsing it again from the line and column it carries.
  ///
  /// - Throws: `ManifestError` when `value` does not start a value in `bytes` (it came from another document).
  package func span(of value: JSONValue, in bytes: [UInt8], file: String = "<json>") throws(ManifestError)
    -> Range<Int>
  {
    var line = 1
    var lineStart = 0
    var offset = 0
    while line < value.line, offset < bytes.count {
      if bytes[offset] == UInt8(ascii: "\n") {
        line += 1
        lineStart = offset + 1
      }
      offset += 1
    }
    if line == 1 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) { lineStart = 3 }
    let start = lineStart + value.column - 1
    let result = bytes.withUnsafeBytes { raw in
      Result { () throws(JSONParseFailure) -> Int in
        guard let base = raw.baseAddress, start >= 0, start < raw.count else {
          throw JSONParseFailure(message: "no value there", line: value.line, column: value.column)
        }
        var scanner = JSONScanner(bytes: base, count: raw.count, maxDepth: maxDepth, keepDuplicates: true)
        scanner.index = start
        scanner.line = value.line
        scanner.lineStart = lineStart
        _ = try scanner.value(depth: 0)
        return scanner.index
      }
    }
    do {
      return start..<(try result.get())
    } catch {
      throw ManifestError(file: file, line: error.line, column: error.column, message: error.message)
    }
  }
}
