import Foundation
import StampFiles
import StampManifest
import StampSystem

/// The records of how each job's outputs were made, one small file per job in `.stampcam/` under the output
/// folder, named by a digest of the job's output path. A record is written (atomically, by rename) after the
/// job's outputs are all in place, and removed before they are made again, so it never describes outputs it did
/// not see made; both happen while the job holds the claim on its outputs (see `claim`).
///
/// Everything goes through the open folders, as the outputs do: `.stampcam` is opened (or made, 0700) from `--out`
/// held open, never through a symbolic link, and records are staged and renamed inside it (0600), so neither a
/// `.stampcam` link nor an `--out` swapped for a link during the run sends a record elsewhere.
struct ResumeLedger: Sendable {
  /// The folder under `--out` that holds the records.
  static let folderName = PathRules.recordsFolder
  /// The most bytes a record may have (one is about 250): a larger file is refused unread.
  static let recordLimit = 4096

  /// The output folder, held open.
  let output: Folder
  /// `.stampcam`, held open.
  let folder: Folder

  /// Opens (or makes) `.stampcam` in the output folder and removes the temporary files runs now dead left in it. It
  /// must be a folder of this user's, not a link; one open to others (made by an older stampcam under a loose
  /// umask) is closed to them.
  init(output: Folder) throws {
    let display = output.display + "/" + Self.folderName
    do {
      folder = try output.child(Self.folderName, creating: true, mode: 0o700)
    } catch let failure as Folder.Failure {
      throw BatchError.ledger(path: display, message: "\(failure.reason)")
    }
    let status: FileStatus
    do throws(Errno) {
      status = try folder.descriptor.status()
    } catch {
      throw BatchError.ledger(path: display, message: error.description)
    }
    guard status.owner == FileSystem.userID else {
      throw BatchError.ledger(
        path: display, message: "belongs to another user (uid \(status.owner)), who could forge its resume records")
    }
    do throws(Errno) {
      if status.permissions & 0o077 != 0 { try folder.descriptor.setPermissions(0o700) }
    } catch {
      throw BatchError.ledger(path: display, message: error.description)
    }
    self.output = output
    TemporaryFiles.removeStale(in: folder)
    TemporaryFiles.remove(in: folder) { name, modified in
      Self.isOldTemporary(name) && FileSystem.now - modified > 86_400
    }
  }

  /// True for the temporary names earlier stampcams gave records, `<32 hex digits>.tmp-<pid>-<random>`, which no sweep
  /// knew: one untouched for a day is a leftover of a killed run (which machine made it, the name does not say).
  static func isOldTemporary(_ name: String) -> Bool {
    let parts = name.split(separator: "-", omittingEmptySubsequences: false)
    let digits = Set("0123456789")
    return parts.count == 3 && parts[0].count == 36 && parts[0].hasSuffix(".tmp")
      && parts[0].dropLast(4).allSatisfy { Set("0123456789abcdef").contains($0) }
      && [parts[1], parts[2]].allSatisfy { !$0.isEmpty && $0.allSatisfy(digits.contains) }
  }

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

  /// The record's file name for `job`.
  static func recordName(for job: JobEntry) -> String {
    Digest(job.output).hex
  }

  /// Whether the outputs under the root were made from exactly `fingerprint` (nil: the job cannot be
  /// fingerprinted, so it is rendered and fails with the reason).
  func verdict(for job: JobEntry, outputs: [String], fingerprint: ResumeFingerprint?) -> Verdict {
    let present = outputs.filter { version(of: $0) != nil }
    let record: ResumeFingerprint.Reading
    do {
      record = try ResumeFingerprint.Reading(folder.read(Self.recordName(for: job), limit: Self.recordLimit))
    } catch {
      return .render(reason: "redone: record refused (\(Self.folderName)/\(error))")
    }
    if present.isEmpty && record == .absent { return .render(reason: "new: no earlier output") }
    if present.count < outputs.count { return .render(reason: "redone: output missing") }
    let made: ResumeFingerprint
    switch record {
    case .absent: return .render(reason: "redone: no record of how the outputs were made")
    case .damaged(let why): return .render(reason: "redone: record damaged (\(why))")
    case .otherFormat: return .render(reason: "redone: stampcam version changed")
    case .record(let fingerprint): made = fingerprint
    }
    guard let fingerprint else { return .render(reason: "redone: the job cannot be replayed") }
    if made.version != fingerprint.version { return .render(reason: "redone: stampcam version changed") }
    if made.policy != fingerprint.policy { return .render(reason: "redone: policy changed") }
    if made.job != fingerprint.job { return .render(reason: "redone: job changed") }
    if made.inputs != fingerprint.inputs { return .render(reason: "redone: input changed") }
    if made.outputs != digest(of: outputs) { return .render(reason: "redone: output changed") }
    return .upToDate
  }

  /// Removes the job's record before its outputs are made again.
  func forget(_ job: JobEntry) {
    try? folder.descriptor.remove(entry: Self.recordName(for: job))
  }

  /// Records that `outputs` (relative paths, all written) were made from `fingerprint`. A record that cannot be
  /// written costs only a render on the next `--resume`.
  func remember(_ job: JobEntry, outputs: [String], fingerprint: ResumeFingerprint) {
    var record = fingerprint
    guard let digest = digest(of: outputs) else { return }
    record.outputs = digest
    let name = Self.recordName(for: job)
    var target = OutputTarget(folder: folder, name: name, display: Self.folderName + "/" + name)
    target.modeLimit = 0o600
    try? AtomicFile.writeUnregistered(Data(record.text.utf8), to: target)
  }

  /// A digest of each output's path, size and modification time, each found from `--out` held open without
  /// following a link; nil when one is missing.
  func digest(of outputs: [String]) -> String? {
    var digest = Digest()
    for output in outputs {
      guard let version = version(of: output) else { return nil }
      CanonicalText.add([output, "\(version.size)", "\(version.modified)"], to: &digest)
    }
    return digest.hex
  }

  /// The output's file (itself, were it a link), reached from `--out` held open through folders that are not links.
  func version(of output: String) -> FileVersion? {
    let parts = PathRules.components(output)
    guard let name = parts.last else { return nil }
    var current = self.output
    for part in parts.dropLast() {
      guard let next = try? current.child(part, creating: false) else { return nil }
      current = next
    }
    return FileVersion.entry(in: current, name: name)
  }
}
