import Foundation
import StampManifest

/// The records of how each job's outputs were made, one small file per job in `.stampcam/` under the output
/// folder, named by a digest of the job's output path. A record is written (atomically, by rename) after the
/// job's outputs are all in place, and removed before they are made again, so it never describes outputs it did
/// not see made.
struct ResumeLedger: Sendable {
  /// The folder under `--out` that holds the records.
  static let folderName = PathRules.recordsFolder

  /// The output folder's real path.
  let root: String

  /// Why a job is rendered or skipped under `--resume`, as the report says it.
  enum Verdict: Sendable, Equatable {
    case upToDate
    case render(reason: String)

    /// E.g. `skipped: up to date`, `redone: job changed`.
    var report: String {
      switch self {
      case .upToDate: return "skipped: up to date"
      case .render(let reason): return reason
      }
    }
  }

  /// The record's path for `job`.
  func recordPath(for job: JobEntry) -> String {
    root + "/" + Self.folderName + "/" + Digest(job.output).hex
  }

  /// Whether the outputs under the root were made from exactly `fingerprint` (nil: the job cannot be
  /// fingerprinted, so it is rendered and fails with the reason).
  func verdict(for job: JobEntry, outputs: [String], fingerprint: ResumeFingerprint?) -> Verdict {
    let present = outputs.filter { FileManager.default.fileExists(atPath: root + "/" + $0) }
    let record = (try? String(contentsOfFile: recordPath(for: job), encoding: .utf8)).flatMap {
      ResumeFingerprint(text: $0)
    }
    if present.isEmpty && record == nil { return .render(reason: "new: no earlier output") }
    if present.count < outputs.count { return .render(reason: "redone: output missing") }
    guard let record else { return .render(reason: "redone: no record of how the outputs were made") }
    guard let fingerprint else { return .render(reason: "redone: the job cannot be replayed") }
    if record.version != fingerprint.version { return .render(reason: "redone: stampcam version changed") }
    if record.job != fingerprint.job { return .render(reason: "redone: job changed") }
    if record.inputs != fingerprint.inputs { return .render(reason: "redone: input changed") }
    if record.outputs != ResumeFingerprint.digest(of: outputs.map { root + "/" + $0 }) {
      return .render(reason: "redone: output changed")
    }
    return .upToDate
  }

  /// Removes the job's record before its outputs are made again.
  func forget(_ job: JobEntry) {
    unlink(recordPath(for: job))
  }

  /// Records that `outputs` (relative paths, all written) were made from `fingerprint`. A record that cannot be
  /// written costs only a render on the next `--resume`.
  func remember(_ job: JobEntry, outputs: [String], fingerprint: ResumeFingerprint) {
    var record = fingerprint
    guard let digest = ResumeFingerprint.digest(of: outputs.map { root + "/" + $0 }) else { return }
    record.outputs = digest
    let path = recordPath(for: job)
    let temporary = path + ".tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
    do {
      try FileManager.default.createDirectory(
        atPath: root + "/" + Self.folderName, withIntermediateDirectories: true)
      try Data(record.text.utf8).write(to: URL(fileURLWithPath: temporary))
      guard rename(temporary, path) == 0 else {
        unlink(temporary)
        return
      }
    } catch {
      unlink(temporary)
    }
  }
}
