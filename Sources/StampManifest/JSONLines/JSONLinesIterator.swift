import Foundation
import StampCore

/// Walks a JSON Lines manifest line by line; see `JSONLinesReader`.
public struct JSONLinesIterator: IteratorProtocol {
  private let file: String
  private let folder: String
  private let limits: Limits
  private let source: LineSource?
  private var openFailure: String?
  private var defaults = JobDefaults()
  private var registry: JobRegistry
  private var jobIndex = 0
  private var sawContent = false

  init(
    url: URL, limits: Limits, held: (file: HeldFile?, failure: String?)? = nil, overlayForEveryJob: Bool = false,
    names: (file: String, folder: String)? = nil
  ) {
    (file, folder) = names ?? ManifestDecoder.names(of: url)
    self.limits = limits
    registry = JobRegistry(overlayForEveryJob: overlayForEveryJob)
    let (input, reason) =
      held.map { $0.file.map(ManifestFile.reading) ?? (nil, $0.failure) } ?? ManifestFile.open(url.path)
    source = input.map { LineSource(input: $0, maxLine: limits.maxBytes) }
    openFailure = reason
  }

  /// The next job or failed line; nil at the end of the file.
  public mutating func next() -> JSONLinesRecord? {
    if let reason = openFailure {
      openFailure = nil
      return JSONLinesRecord(
        line: 0, result: .failure(ManifestError(file: file, message: "cannot read the file (\(reason))")))
    }
    while let event = source?.next() {
      switch event {
      case .failure(let reason):
        return JSONLinesRecord(
          line: 0, result: .failure(ManifestError(file: file, message: "cannot read the file (\(reason))")))
      case .tooLong(let number):
        sawContent = true
        jobIndex += 1
        let message = "line is longer than the limit of \(limits.maxBytes) bytes"
        return JSONLinesRecord(
          line: number, result: .failure(ManifestError(file: file, line: number, message: message)))
      case .line(let number, let bytes):
        if let record = decode(bytes, line: number) { return record }
      }
    }
    return nil
  }

  /// A record for one line, or nil for a blank line or a valid header.
  private mutating func decode(_ bytes: [UInt8], line: Int) -> JSONLinesRecord? {
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
    let first = !sawContent
    sawContent = true
    let root: JSONValue
    do {
      root = try JSONParser(maxDepth: limits.maxDepth, maxBytes: limits.maxBytes, duplicateKeys: .keep)
        .parse(bytes, file: file)
    } catch {
      jobIndex += 1
      let located = error.diagnostics.map { d in
        Diagnostic(file: d.file, line: line, column: d.column, path: d.path, message: d.message)
      }
      return JSONLinesRecord(line: line, result: .failure(ManifestError(located)))
    }
    var walker = ManifestWalker(file: file, folder: folder, limits: limits)
    walker.lineOffset = line - 1
    if first && root["version"] != nil {
      defaults = walker.linesHeader(root)
      return walker.diagnostics.isEmpty
        ? nil : JSONLinesRecord(line: line, result: .failure(ManifestError(walker.diagnostics)))
    }
    let index = jobIndex
    jobIndex += 1
    let path = element("jobs", index)
    guard let job = walker.job(root, index: index, path: path, defaults: defaults) else {
      return JSONLinesRecord(line: line, result: .failure(ManifestError(walker.diagnostics)))
    }
    registry.register(job, path: path, walker: &walker)
    if walker.diagnostics.isEmpty { return JSONLinesRecord(line: line, result: .success(job.entry)) }
    return JSONLinesRecord(line: line, result: .failure(ManifestError(walker.diagnostics)))
  }
}
