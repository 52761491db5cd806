import Dispatch
import Foundation
import StampBatch
import StampManifest

/// `stampcam render`: validate the whole manifest first, then render with progress, a report and a summary.
struct RenderCommand: Subcommand {
  let options: RenderOptions

  init(_ options: RenderOptions) {
    self.options = options
  }

  func run() -> Int32 {
    let url = URL(fileURLWithPath: options.manifest)
    let decoder = ManifestDecoder()
    let lines = ManifestFormat(path: options.manifest) == .jsonLines
    // Nothing is written unless the whole manifest is valid; JSON Lines are validated streaming, then streamed
    // again to render, so memory does not grow with the number of jobs.
    var jobs: [JobEntry] = []
    let file = options.manifest
    let inputs: InputPolicy
    do {
      inputs = try InputOptions.policy(
        root: options.inputRoot, untrustedLoaders: options.allowUntrustedLoaders, failOn: options.failOn)
    } catch {
      return CLI.fail(error.message, status: error.status)
    }
    let root = inputs.root
    // No output, overlay, view or report may be any input, the manifest or another output: checked as files,
    // job by job, while the manifest is validated.
    let claims: OutputClaims
    do {
      claims = try OutputClaims(out: options.out, manifest: file, file: file, report: options.report)
    } catch {
      return Self.invalid(error.diagnostics)
    }
    let overlay = options.overlay
    let check = { (job: JobEntry) -> [Diagnostic] in
      JobCheck.outputs(of: job, file: file, overlay: overlay) + claims.add(job, overlay: overlay || job.overlay)
        + (root.map { InputCheck.confined(job, to: $0, file: file) } ?? [])
    }
    if lines {
      let diagnostics = decoder.validate(contentsOf: url, checking: check)
      if !diagnostics.isEmpty { return Self.invalid(diagnostics) }
    } else {
      do {
        jobs = try decoder.decode(contentsOf: url).jobs
      } catch {
        return Self.invalid(error.diagnostics)
      }
      let diagnostics = jobs.flatMap(check)
      if !diagnostics.isEmpty { return Self.invalid(diagnostics) }
    }
    var batch = BatchOptions(outputFolder: options.out, concurrency: options.jobs, maxPixels: options.maxPixels)
    batch.overlay = options.overlay
    batch.resume = options.resume
    batch.manifest = file
    batch.shard = options.shard.flatMap(Shard.init)
    batch.protected = claims.protected
    batch.inputs = inputs
    batch.stampCacheBytes = options.stampCacheMB << 20
    batch.jobTimeout = options.jobTimeout
    let runner: BatchRunner
    let report: ReportWriter?
    do {
      report = try options.report.map(ReportWriter.init(path:))
      if let path = options.report, path != "-" { batch.protect(path) }
      runner = try BatchRunner(options: batch)
    } catch {
      return CLI.fail("\(error)", status: 2)
    }
    let cancellation = Cancellation()
    let signals = SignalWatch(cancellation: cancellation, quiet: options.quiet)
    let total = lines ? nil : jobs.count { batch.shard?.contains($0.index) ?? true }
    let progress = Progress(total: total, enabled: !options.quiet && Terminal.isInteractive)
    let tally = Locked(Summary())
    let start = Date()
    // A job's report line is written under the same lock as its outputs are renamed into place; when the line
    // cannot be written, its outputs are removed again and no further job starts.
    let onDone: @Sendable (JobOutcome) -> Bool = { outcome in
      if let error = outcome.error, outcome.status == .failed { Terminal.error(error) }
      let noted = report?.write(outcome) ?? true
      if !noted { cancellation.cancel() }
      var counted = outcome
      if !noted, counted.status == .ok { counted.status = .failed }
      progress.update(
        done: tally.withLock { summary in
          summary.add(counted)
          return summary.total
        })
      return noted
    }
    if lines {
      let records = decoder.jobs(inLinesAt: url).lazy.map { $0.result }
      runner.run(records, cancellation: cancellation, record: onDone)
    } else {
      runner.run(jobs.lazy.map { .success($0) }, cancellation: cancellation, record: onDone)
    }
    progress.finish()
    report?.close()
    signals.stop()
    if let failure = report?.failure {
      Terminal.error(failure + " (outputs of jobs it could not list were removed; no later job was started)")
      return 1
    }
    var summary = tally.withLock { $0 }
    summary.seconds = Date().timeIntervalSince(start)
    if !options.quiet {
      Terminal.line(
        summary.line + (cancellation.isCancelled ? " (interrupted: the jobs not started were not run)" : ""))
      if let fallbacks = summary.fallbackLine { Terminal.line(fallbacks) }
    }
    return signals.received.map { 128 + $0 } ?? (cancellation.isCancelled ? 130 : summary.exitStatus)
  }

  static func invalid(_ diagnostics: [Diagnostic]) -> Int32 {
    for diagnostic in diagnostics { Terminal.error("\(diagnostic)") }
    Terminal.line("nothing written: the manifest has \(diagnostics.count) error\(diagnostics.count == 1 ? "" : "s")")
    return 2
  }
}
