import StampCore

/// A decoded, valid manifest: its jobs in order, each merged with the manifest's defaults.
public struct Manifest: Sendable, Hashable {
  /// The jobs in manifest order.
  public var jobs: [JobEntry]

  /// Creates a manifest.
  public init(jobs: [JobEntry]) {
    self.jobs = jobs
  }
}

/// The two ways a manifest can be written.
public enum ManifestFormat: Sendable, Hashable {
  /// One JSON document: `{"version": 1, "defaults": {...}, "jobs": [...]}`.
  case json
  /// One job per line (`.jsonl`, `.ndjson`), blank lines ignored; the first line may instead be a header
  /// `{"version": 1, "defaults": {...}}`.
  case jsonLines

  /// The format a file's extension implies: JSON Lines for `.jsonl` and `.ndjson`, JSON otherwise.
  public init(path: String) {
    let lower = path.lowercased()
    self = lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") ? .jsonLines : .json
  }
}

extension ManifestFormat {
  /// The format of a manifest that has no name to tell it by (piped on standard input), from its first non-blank
  /// line: JSON Lines when that line alone is a JSON object with no `jobs` key (a job, or the header
  /// `{"version": 1, "defaults": {...}}`), one JSON document otherwise (spread over lines, or on one line with its
  /// `jobs`). A first line that is no JSON at all is read as a document, whose error names that line.
  package init(firstLine: [UInt8], limits: Limits = Limits()) {
    let parser = JSONParser(maxDepth: limits.maxDepth, maxBytes: limits.maxBytes, duplicateKeys: .keep)
    guard let root = try? parser.parse(firstLine), case .object = root.kind, root["jobs"] == nil else {
      self = .json
      return
    }
    self = .jsonLines
  }
}
