extension PhotoGlob {
  /// Splits a pattern into its root and compiled components, finding every mistake it can name.
  struct Parser {
    private let bytes: [UInt8]

    init(_ pattern: String) {
      bytes = Array(pattern.utf8)
    }

    /// The root and the components after it.
    func parse() throws(SyntaxError) -> (root: String, components: [Component]) {
      guard !bytes.isEmpty else { throw SyntaxError("an empty pattern") }
      let absolute = bytes.first == UInt8(ascii: "/")
      var parts: [Range<Int>] = []
      var from = 0
      for index in bytes.indices where bytes[index] == UInt8(ascii: "/") {
        parts.append(from..<index)
        from = index + 1
      }
      // A last part that is empty is a trailing "/"; one that is "." names its folder.
      guard from < bytes.count, bytes[from...] != [UInt8(ascii: ".")] else { throw SyntaxError(Parser.foldersOnly) }
      parts.append(from..<bytes.count)

      var compiled: [(literal: Bool, component: Component, text: Range<Int>)] = []
      for part in parts where !part.isEmpty && bytes[part] != [UInt8(ascii: ".")] {
        compiled.append(try component(part))
      }
      guard let last = compiled.last, last.component != .anyFolders else { throw SyntaxError(Parser.foldersOnly) }

      // The root is the literal components before the first pattern one, never the file name itself.
      let rootCount = compiled.dropLast().prefix { $0.literal }.count
      let rootText = compiled.prefix(rootCount).map { String(decoding: bytes[$0.text], as: UTF8.self) }
      let root = (absolute ? "/" : "") + rootText.joined(separator: "/")
      return (root, compiled.dropFirst(rootCount).map(\.component))
    }

    static let foldersOnly = "the pattern names folders only (end it with a file name pattern, such as *.jpg)"

    /// One component: `**`, or a name pattern; `literal` when it holds no metacharacter (nor an escape).
    private func component(_ part: Range<Int>) throws(SyntaxError) -> (
      literal: Bool, component: Component, text: Range<Int>
    ) {
      let text = bytes[part]
      if text.elementsEqual("..".utf8) { throw SyntaxError("'..' is not allowed in a photo glob") }
      if text.elementsEqual("**".utf8) { return (false, .anyFolders, part) }
      var tokens: [Token] = []
      var literal = true
      var index = part.lowerBound
      while index < part.upperBound {
        let byte = bytes[index]
        switch byte {
        case 0:
          throw SyntaxError("a NUL byte at byte \(index + 1)")
        case UInt8(ascii: "*"):
          literal = false
          if index + 1 < part.upperBound, bytes[index + 1] == UInt8(ascii: "*") {
            throw SyntaxError("'**' at byte \(index + 1) must be a whole component, as in in/**/*.jpg")
          }
          tokens.append(.anyBytes)
          index += 1
        case UInt8(ascii: "?"):
          literal = false
          tokens.append(.anyByte)
          index += 1
        case UInt8(ascii: "["):
          literal = false
          let (set, next) = try self.set(at: index, end: part.upperBound)
          tokens.append(set)
          index = next
        case UInt8(ascii: "\\"):
          literal = false
          guard index + 1 < part.upperBound else { throw SyntaxError(Parser.escapesNothing(at: index)) }
          tokens.append(.byte(bytes[index + 1]))
          index += 2
        default:
          tokens.append(.byte(byte))
          index += 1
        }
      }
      // An escaped "\.\." is still the parent folder once unescaped.
      if tokens == [.byte(UInt8(ascii: ".")), .byte(UInt8(ascii: "."))] {
        throw SyntaxError("'..' is not allowed in a photo glob")
      }
      return (literal, .name(tokens), part)
    }

    /// The set that opens at `open` (a `[`), and the index after its `]`.
    private func set(at open: Int, end: Int) throws(SyntaxError) -> (Token, Int) {
      var index = open + 1
      var negated = false
      if index < end, bytes[index] == UInt8(ascii: "!") || bytes[index] == UInt8(ascii: "^") {
        negated = true
        index += 1
      }
      var ranges: [ClosedRange<UInt8>] = []
      var first = true
      while index < end {
        var low = bytes[index]
        if low == UInt8(ascii: "]") && !first { return (.set(ranges: ranges, negated: negated), index + 1) }
        first = false
        let lowAt = index
        if low == UInt8(ascii: "\\") {
          guard index + 1 < end else { throw SyntaxError(Parser.escapesNothing(at: index)) }
          index += 1
          low = bytes[index]
        }
        if low == 0 { throw SyntaxError("a NUL byte at byte \(index + 1)") }
        index += 1
        // "a-z" is a range; a "-" last in the set ("[a-]") is itself.
        guard index + 1 < end, bytes[index] == UInt8(ascii: "-"), bytes[index + 1] != UInt8(ascii: "]") else {
          ranges.append(low...low)
          continue
        }
        index += 1
        var high = bytes[index]
        if high == UInt8(ascii: "\\") {
          guard index + 1 < end else { throw SyntaxError(Parser.escapesNothing(at: index)) }
          index += 1
          high = bytes[index]
        }
        if high == 0 { throw SyntaxError("a NUL byte at byte \(index + 1)") }
        index += 1
        guard low <= high else {
          let range = String(decoding: bytes[lowAt..<index], as: UTF8.self)
          throw SyntaxError("the range '\(range)' at byte \(lowAt + 1) is empty (its first byte is after its last)")
        }
        ranges.append(low...high)
      }
      throw SyntaxError("unclosed '[' at byte \(open + 1)")
    }

    private static func escapesNothing(at index: Int) -> String {
      "'\\' at byte \(index + 1) escapes nothing (a '\\' before '/' or at the end of the pattern)"
    }
  }
}
