/// One file a job writes under `--out`: what it is, where it goes, and the job's field that names it. The registry,
/// the checks, the claims, the resume records and the renderer all take a job's files from `JobEntry.outputs`.
public struct JobOutput: Sendable, Hashable {
  /// What the file shows.
  public enum Kind: Sendable, Hashable {
    /// The photo with the stamps (`output`).
    case output
    /// What the screen showed at the end (`viewOutput`).
    case viewOutput
    /// A picture of the gestures over a copy of the output, beside it (`overlay`, `render --overlay`).
    case overlay
  }

  /// What the file shows.
  public var kind: Kind
  /// The file's path relative to `--out`.
  public var path: String

  /// Creates an output of `kind` at `path`.
  public init(_ kind: Kind, path: String) {
    self.kind = kind
    self.path = path
  }

  /// The job's field that names the file: `viewOutput` for the view output, `output` for the output and for the
  /// overlay, whose name is the output's.
  public var field: String { kind == .viewOutput ? "viewOutput" : "output" }

  /// The path quoted as messages tell it: `"a.jpg"`, or `its overlay "a.overlay.jpg"`.
  var quoted: String { (kind == .overlay ? "its overlay " : "") + "\"\(path)\"" }
}

extension JobEntry {
  /// The files the job writes, in the order they are written: its output, its view output when it has one, and
  /// its overlay (beside the output, `PathRules.overlay(of:)`) when it asks for one or `overlayForEveryJob` is set.
  /// A job without an output (one the decoder refused) writes no overlay.
  public func outputs(overlayForEveryJob: Bool = false) -> [JobOutput] {
    var outputs = [JobOutput(.output, path: output)]
    if let viewOutput { outputs.append(JobOutput(.viewOutput, path: viewOutput)) }
    if overlay || overlayForEveryJob, !output.isEmpty {
      outputs.append(JobOutput(.overlay, path: PathRules.overlay(of: output)))
    }
    return outputs
  }
}
