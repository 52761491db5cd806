import StampSystem

/// Reads a file one line at a time in fixed-size chunks, so memory holds one line, however many there are: the
/// JSON Lines manifest, and the logs `import` reads.
package final class LineSource {
  /// What one call to `next()` found.
  package enum Event {
    /// A line's bytes, without its `\n`.
    case line(number: Int, bytes: [UInt8])
    /// A line longer than the limit; its bytes were skipped, not kept.
    case tooLong(number: Int)
    /// The file could not be read past this point.
    case failure(reason: String)
  }

  private let input: ManifestFile
  private let maxLine: Int
  private let chunk: Int
  private var buffer: [UInt8] = []
  private var start = 0
  private var scanned = 0
  private var lineNumber = 0
  private var skipping = false
  private var atEnd = false

  init(input: ManifestFile, maxLine: Int, chunk: Int = 1 << 16) {
    self.input = input
    self.maxLine = maxLine
    self.chunk = chunk
  }

  /// The lines of the file open on `descriptor`, from its offset; the source owns the descriptor and closes it.
  package convenience init(adopting descriptor: consuming FileDescriptor, maxLine: Int) {
    self.init(input: ManifestFile(adopting: descriptor), maxLine: maxLine)
  }

  /// The next line, or nil at the end of the file.
  package func next() -> Event? {
    while true {
      if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
        return take(upTo: newline, consuming: newline + 1)
      }
      scanned = buffer.count
      if scanned - start > maxLine {
        skipping = true
        start = scanned
      }
      if atEnd {
        // A last line without a final newline.
        guard start < buffer.count || skipping else { return nil }
        return take(upTo: buffer.count, consuming: buffer.count)
      }
      if start > 0 {
        buffer.removeFirst(start)
        scanned -= start
        start = 0
      }
      switch input.read(appendingTo: &buffer, count: chunk) {
      case .failure(let failure):
        atEnd = true
        buffer.removeAll()
        start = 0
        scanned = 0
        skipping = false
        return .failure(reason: failure.reason)
      case .success(let n): atEnd = n == 0
      }
    }
  }

  private func take(upTo end: Int, consuming next: Int) -> Event {
    lineNumber += 1
    let event: Event =
      skipping || end - start > maxLine
      ? .tooLong(number: lineNumber) : .line(number: lineNumber, bytes: Array(buffer[start..<end]))
    skipping = false
    start = next
    scanned = next
    return event
  }
}
