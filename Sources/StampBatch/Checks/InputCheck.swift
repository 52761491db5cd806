import Foundation
import StampFiles
import StampManifest
import StampRender
import StampSystem

/// Inputs checked against `--input-root` before anything is rendered, so that a manifest naming a file outside
/// is refused whole (each input named with its job). Rendering checks again, on the very file it opens.
package enum InputCheck {
  /// A diagnostic for each input of `job` whose real path (symlinks and `..` resolved) lies outside `root` (a
  /// real path). Inputs that do not exist are left to the job, which fails naming them.
  package static func confined(_ job: JobEntry, to root: String, file: String) -> [Diagnostic] {
    let inputs =
      [("jobs[\(job.index)].base", job.base)]
      + job.stamps.enumerated().map { ("jobs[\(job.index)].stamps[\($0)].image", $1.image) }
    var seen = Set<PathKey>()
    return inputs.compactMap { path, input in
      guard seen.insert(PathKey(input)).inserted, let real = try? FileSystem.realPath(input) else { return nil }
      guard !PathKey(real).isInside(root) else { return nil }
      return Diagnostic(
        file: file, line: job.line, path: path,
        message: "\(input): outside the input root \(root) (it is \(real))")
    }
  }
}
