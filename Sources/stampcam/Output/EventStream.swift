import Foundation
import StampBatch
import StampManifest

/// `render --events FILE|-`: the run's progress as JSON Lines for a dashboard, one object a line, each with its
/// `"event"` first and `"elapsed"` (seconds since the run started) last:
/// - `start`, once, before any job: `jobs` (the jobs of this shard, each photo of a job over many photos counted),
///   `resumed` (under `--resume`, those whose outputs are up to date now and will be skipped), `todo` (`jobs` less
///   `resumed`), `shard` (`"I/N"`, or null);
/// - `job-start` as a job is taken up: `id`, `place` (its place among the manifest's jobs, from 0, as `--shard`
///   counts);
/// - `job-end` as it ends: the report's line (`id`, `status`, `outputs`, `error`, `seconds`, `path`, `fallback`,
///   and `resume` under `--resume`);
/// - `end`, once, last, whatever `--quiet` says: `jobs` (the jobs that ended), `ok`, `failed`, `skipped`,
///   `seconds`, `interrupted` (a signal stopped the run: the jobs not started are not counted), `status` (the exit
///   status: 0, 1 or 128 + N; a standard stream failing afterwards still makes it 3 or 4).
/// A line that cannot be written (a full disk, a closed pipe) stops the run as a report that cannot be written does.
final class EventStream: Sendable {
  private let writer: ReportWriter
  private let start = DispatchTime.now()

  /// Opens (truncates) the file, or takes standard output for `-`.
  init(path: String) throws {
    writer = try ReportWriter(path: path, noun: "events")
  }

  /// Why a line could not be written, if one could not.
  var failure: String? { writer.failure }

  /// The run's first line.
  @discardableResult
  func started(jobs: Int, resumed: Int, shard: String?) -> Bool {
    emit(
      "start",
      [
        ("jobs", .literal("\(jobs)")), ("resumed", .literal("\(resumed)")),
        ("todo", .literal("\(max(jobs - resumed, 0))")), ("shard", shard.map { .string($0) } ?? .null),
      ])
  }

  /// A job was taken up.
  @discardableResult
  func started(_ job: JobEntry) -> Bool {
    emit("job-start", [("id", .string(job.id)), ("place", .literal("\(job.position)"))])
  }

  /// A job ended: the report's fields.
  @discardableResult
  func ended(_ outcome: JobOutcome) -> Bool {
    emit("job-end", outcome.jsonFields)
  }

  /// The run's last line, with the tally and the exit status.
  @discardableResult
  func finished(_ summary: Summary, interrupted: Bool, status: Int32) -> Bool {
    emit(
      "end",
      [
        ("jobs", .literal("\(summary.total)")), ("ok", .literal("\(summary.ok)")),
        ("failed", .literal("\(summary.failed)")), ("skipped", .literal("\(summary.skipped)")),
        ("seconds", .rounded((summary.seconds * 1000).rounded() / 1000)),
        ("interrupted", .literal(interrupted ? "true" : "false")), ("status", .literal("\(status)")),
      ])
  }

  /// Flushes and closes the file; false when that fails.
  @discardableResult
  func close() -> Bool { writer.close() }

  private func emit(_ event: String, _ fields: [(String, JSONText)]) -> Bool {
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    let line: [(String, JSONText)] =
      [("event", .string(event))] + fields + [("elapsed", .rounded((elapsed * 1000).rounded() / 1000))]
    return writer.write(line: JSONText.object(line).inline)
  }
}
