import StampBatch

/// The exit statuses, as the README and `stampcam --help` list them.
enum ExitStatus {
  /// Every job written, or the command did what it was asked.
  static let success: Int32 = 0
  /// One or more jobs failed (the others are written), or explain could not replay a job.
  static let failed: Int32 = 1
  /// A usage error or an invalid manifest: nothing written.
  static let usage: Int32 = 2
  /// Standard output could not be written (closed, full, a pipe nobody reads): the result is lost.
  static let outputLost: Int32 = 3
  /// Standard error could not be written, though the command otherwise succeeded.
  static let errorLost: Int32 = 4
  /// Stopped by the signal `number`: 128 + its number (130 for SIGINT, 143 for SIGTERM), as shells report it.
  static func signal(_ number: Int32) -> Int32 { 128 + number }
  /// A batch that ran to its end: `failed` when a job failed, `success` when every job was written.
  static func batch(_ summary: Summary) -> Int32 { summary.failed > 0 ? failed : success }

  /// The status once a command has run and returned `status`. A lost standard output outranks the jobs' own
  /// failure, since the result itself is gone; a lost standard error outranks only success (status 1 already says
  /// that something went wrong, and the report can say what). Usage errors and signals (128 + n) are kept.
  static func afterStreams(_ status: Int32) -> Int32 {
    guard status == success || status == failed else { return status }
    if let reason = StandardStream.output.failure {
      Terminal.error("cannot write to standard output: \(reason)")
      return outputLost
    }
    if status == success, StandardStream.error.failure != nil { return errorLost }
    return status
  }
}
