/// One of N deterministic parts of a manifest: the job at place i (0-based, each photo of a job over many photos
/// counted, see `JobEntry.position`) belongs to shard i mod N (as Kubernetes' JOB_COMPLETION_INDEX), so N runs with
/// shards 0..<N render every job exactly once.
package struct Shard: Sendable, Equatable {
  /// This shard, 0 ..< count.
  package var index: Int
  /// How many shards there are.
  package var count: Int

  /// Parses `I/N`; nil unless 0 <= I < N.
  package init?(_ text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 0, i < n else { return nil }
    index = i
    count = n
  }

  /// True when the job at `jobIndex` (its place in the manifest, from 0) is this shard's.
  package func contains(_ jobIndex: Int) -> Bool { jobIndex % count == index }

  /// How many of the jobs at places 0 ..< `total` are this shard's.
  package func count(of total: Int) -> Int { total / count + (index < total % count ? 1 : 0) }
}
