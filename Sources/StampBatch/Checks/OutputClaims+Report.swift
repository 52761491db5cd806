import StampFiles
import StampManifest

/// Where a `--report` file lies relative to `--out`, compared byte for byte by components: a report inside the
/// resume records' folder (a record would replace it), under an output (where that output needs a file), or where
/// an output needs a folder is refused before anything is written. The report's path is resolved as a file opened
/// through it would land, a dangling symbolic link followed to where it points.
struct ReportPlace {
  /// The report as the user named it.
  let report: String
  /// Its components under the real `--out`.
  let components: [[UInt8]]

  /// The report's place under `out`; nil when it lies elsewhere. Throws when it lies in `--out/.stampcam`.
  init?(_ report: String, out: String, file: String) throws(ManifestError) {
    let path = PathKey(OutputClaims.resolved(report))
    let root = OutputClaims.resolved(out)
    guard path.isInside(root) else { return nil }
    let components = path.bytes.dropFirst(root.utf8.count).split(separator: PathRules.slash).map(Array.init)
    if components.first == Array(PathRules.recordsFolder.utf8) {
      throw ManifestError(
        file: file,
        message: "\(report): --report would lie in --out/\(PathRules.recordsFolder), where the resume records are kept")
    }
    self.report = report
    self.components = components
  }

  /// A diagnostic when `output` (the job's `field`) and the report meet as file and folder: one lies under the
  /// other. The same file is the claims' to find.
  func clash(with output: String, field: String, of job: JobEntry, file: String) -> Diagnostic? {
    let parts = PathRules.components(output).map { Array($0.utf8) }
    let message: String
    if components.count > parts.count, components.starts(with: parts) {
      message = "the --report file \(report) would lie under \"\(output)\", which job \"\(job.id)\" writes as a file"
    } else if parts.count > components.count, parts.starts(with: components) {
      message = "\"\(output)\" of job \"\(job.id)\" needs the --report file \(report) as a folder"
    } else {
      return nil
    }
    return Diagnostic(file: file, line: job.line, path: "jobs[\(job.index)].\(field)", message: message)
  }
}
