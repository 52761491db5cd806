/// Errors of the batch layer that are not about one job's pixels.
package enum BatchError: Error, CustomStringConvertible, Equatable {
  /// The output folder cannot be created or used.
  case outputFolder(path: String, message: String)
  /// `.stampcam` under the output folder cannot hold the resume records and output claims.
  case ledger(path: String, message: String)
  /// A job's output path would leave the output folder or overwrite an input.
  case unsafeOutput(job: String, path: String, reason: String)
  /// A job's output (its `field`, `output` or `viewOutput`) is larger than its format can hold.
  case outputTooLarge(field: String, path: String, reason: String)
  /// The private file render keeps a job over many photos' list in cannot be made in `folder`.
  case photoList(folder: String, message: String)

  package var description: String {
    switch self {
    case .outputFolder(let path, let message):
      return "\(path): cannot use as the output folder: \(message)"
    case .ledger(let path, let message):
      return "\(path): cannot keep the resume records and output claims there: \(message)"
    case .photoList(let folder, let message):
      return "\(folder): cannot make the private file that keeps the list of photos there: \(message)"
    case .unsafeOutput(_, let path, let reason), .outputTooLarge(_, let path, let reason):
      // Raised inside a job, whose error starts with the manifest, line and id already.
      return "output \(path): \(reason)"
    }
  }
}
