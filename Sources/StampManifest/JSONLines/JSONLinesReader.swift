import Foundation
import StampCore
import StampSystem

/// The jobs of a JSON Lines manifest (`.jsonl`, `.ndjson`), decoded one line at a time.
///
/// Each non-blank line is one job, except that the first may be a header `{"version": 1, "defaults": {...}}` (told
/// apart by its `version` key) whose defaults apply to every job. Memory stays flat however many lines there are:
/// only the ids and output paths seen so far are kept, to report duplicates. Iterating twice reads the file twice: by
/// its path again, or, for a reader from `ManifestDecoder.jobs(inLinesHeldOpenAt:)`, the one file opened then.
///
/// ```swift
/// for record in ManifestDecoder().jobs(inLinesAt: url) {
///   switch record.result {
///   case .success(let job): run(job)
///   case .failure(let error): print(error)   // names the file, the line and the JSON path
///   }
/// }
/// ```
public struct JSONLinesReader: Sequence, Sendable {
  /// The manifest file.
  public let url: URL
  /// Bounds on each line and job.
  public let limits: Limits
  /// The file held open for every pass, or why it could not be opened; nil to open the path at each pass.
  private let held: (file: HeldFile?, failure: String?)?
  /// Whether every job also writes its overlay picture (`render --overlay`), for the check that no two outputs
  /// are one file.
  public var overlayForEveryJob = false

  /// Creates a reader; nothing is read until iteration.
  public init(url: URL, limits: Limits = Limits()) {
    self.url = url
    self.limits = limits
    held = nil
  }

  /// The name diagnostics give the file and the folder relative paths start from, when not the url's.
  private var names: (file: String, folder: String)?

  /// A reader of the file at `url` opened now, once, for every pass (see `HeldFile`).
  init(holding url: URL, limits: Limits) {
    self.url = url
    self.limits = limits
    held = HeldFile.open(url.path)
  }

  /// A reader of the open regular file `descriptor` (a copy of it is held; the caller keeps its own), named `file` in
  /// diagnostics, its relative paths resolved against `folder` ("" for the current folder): a manifest spooled from
  /// standard input, whose file may already be removed.
  package init(spooled descriptor: borrowing FileDescriptor, file: String, folder: String, limits: Limits = Limits()) {
    url = URL(fileURLWithPath: file)
    self.limits = limits
    held = HeldFile.holding(descriptor)
    names = (file, folder)
  }

  /// Opens the file (or starts again on the one held) and starts at its first line.
  public func makeIterator() -> JSONLinesIterator {
    JSONLinesIterator(url: url, limits: limits, held: held, overlayForEveryJob: overlayForEveryJob, names: names)
  }
}

/// One line's outcome: a job, or that line's problems.
public struct JSONLinesRecord: Sendable {
  /// The 1-based line; 0 when the file itself cannot be read.
  public var line: Int
  /// The decoded job, or every problem on the line.
  public var result: Result<JobEntry, ManifestError>
}
