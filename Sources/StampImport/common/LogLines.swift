/// A log read one line at a time, line ends removed, from its start each time it is opened: the getevent import
/// reads a log twice (which devices it holds, then the chosen one's events) and keeps no more than a line of it.
///
/// Lines end at every line end Swift knows (LF, CRLF, CR, ...), as a log split whole would.
package struct LogLines: Sendable {
  /// Starts a reading; the function it returns gives the next line, nil at the end.
  package let open: @Sendable () throws -> () throws -> String?

  /// Lines from `open`, whose readings give pieces of the log that end at LF (a CR before it is dropped); a piece
  /// is split again at any other line end.
  package init(pieces open: @escaping @Sendable () throws -> () throws -> String?) {
    self.open = {
      let next = try open()
      var pending: [Substring] = []
      return {
        while pending.isEmpty {
          guard var piece = try next() else { return nil }
          if piece.hasSuffix("\r") { piece.removeLast() }
          pending = piece.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).reversed()
        }
        return pending.popLast().map(String.init)
      }
    }
  }

  /// The lines of a whole log held in memory.
  package init(text: String) {
    open = {
      var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).makeIterator()
      return { lines.next().map(String.init) }
    }
  }
}
