import Foundation
import StampManifest

/// `validate`'s last step: every photo and stamp a job names must exist as a readable file. Checked with stat,
/// never by decoding.
public enum InputCheck {
  /// A diagnostic for each input of `job` that is missing, not a regular file, or unreadable.
  public static func problems(in job: JobEntry, file: String) -> [Diagnostic] {
    var found: [Diagnostic] = []
    var seen = Set<String>()
    let inputs =
      [("jobs[\(job.index)].base", job.base)]
      + job.stamps.enumerated().map { ("jobs[\(job.index)].stamps[\($0)].image", $1.image) }
    for (path, input) in inputs where seen.insert(input).inserted {
      if let problem = problem(with: input) {
        found.append(Diagnostic(file: file, line: job.line, path: path, message: "\(input): \(problem)"))
      }
    }
    return found
  }

  static func problem(with path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return errno == ENOENT ? "no such file" : String(cString: strerror(errno)) }
    guard info.st_mode & S_IFMT == S_IFREG else { return "not a regular file" }
    guard access(path, R_OK) == 0 else { return "not readable" }
    return nil
  }
}
