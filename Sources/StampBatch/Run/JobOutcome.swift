import StampManifest

/// How one job ended.
package struct JobOutcome: Sendable, Equatable {
  /// Whether the job's outputs were written.
  package enum Status: String, Sendable {
    case ok, failed, skipped
  }

  /// The job's id.
  package var id: String
  /// How it ended.
  package var status: Status
  /// The files written, relative to the output folder.
  package var outputs: [String]
  /// What went wrong, naming the file, when the job failed.
  package var error: String?
  /// Wall-clock seconds the job took.
  package var seconds: Double
  /// Under `--resume`, why the job was skipped or rendered (`skipped: up to date`, `redone: job changed`, ...).
  package var resume: String?
  /// How the main output was made, when it was: "lossless", "restart-intervals", "spliced" or "pixels"
  /// (`RenderPath.name`).
  package var path: String?
  /// Why a JPEG photo written as JPEG with no quality was re-encoded from pixels (`RenderPath.fallback`).
  package var fallback: String?

  /// Creates an outcome.
  package init(id: String, status: Status, outputs: [String], error: String?, seconds: Double) {
    self.id = id
    self.status = status
    self.outputs = outputs
    self.error = error
    self.seconds = seconds
  }
}

extension JobOutcome {
  /// The report's line for this job: `{"id", "status", "outputs", "error", "seconds", "path", "fallback"}`, and
  /// `"resume"` under `--resume`.
  package var jsonLine: String {
    JSONText.object(jsonFields).inline
  }

  /// The report line's fields, in its order (`--events` writes them in its `job-end` lines).
  package var jsonFields: [(String, JSONText)] {
    var fields: [(String, JSONText)] = [
      ("id", .string(id)), ("status", .string(status.rawValue)), ("outputs", .array(outputs.map { .string($0) })),
      ("error", error.map { .string($0) } ?? .null), ("seconds", .rounded((seconds * 1000).rounded() / 1000)),
      ("path", path.map { .string($0) } ?? .null), ("fallback", fallback.map { .string($0) } ?? .null),
    ]
    if let resume { fields.append(("resume", .string(resume))) }
    return fields
  }
}
