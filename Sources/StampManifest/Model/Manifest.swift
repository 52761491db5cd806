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
