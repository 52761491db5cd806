import Dispatch
import Foundation
import StampBatch
import StampManifest

/// `stampcam render`: validate the whole manifest first, then render with progress, a report and a summary.
struct RenderCommand {
  let options: RenderOptions

  func run() -> Int32 {
    let url = URL(fileURLWithPath: options.manifest)
    let decoder = ManifestDecoder()
    let lines = ManifestFormat(path: options.manifest) == .jsonLines
    // Nothing is written unless the whole manifest is valid; JSON Lines are validated streaming, then streamed
    // again to render, so memory does not grow with the number of jobs.
    var jobs: [JobEntry] = []
    let file = options.manifest
    if lines {
      let diagnostics = decoder.validate(contentsOf: url) { JobCheck.outputs(of: $0, file: file) }
      if !diagnostics.isEmpty { return Self.invalid(diagnostics) }
    } else {
      do {
        jobs = try decoder.decode(contentsOf: url).jobs
      } catch {
        return Self.invalid(error.diagnostics)
      }
      let diagnostics = jobs.flatMap { JobCheck.outputs(of: $0, file: file) }
      if !diagnostics.isEmpty { return Self.invalid(diagnostics) }
    }
    var batch = BatchOptions(outputFolder: options.out, concurrency: options.jobs, maxPixels: options.maxPixels)
    batch.overlay = options.overlay
    batch.resume = options.resume
    batch.shard = options.shard.flatMap(Shard.init)
    let runner: BatchRunner
    let report: ReportWriter?
    do {
      runner = try BatchRunner(options: batch)
      report = try options.report.map(ReportWriter.init(path:))
    } catch {
      return CLI.fail("\(error)", status: 2)
    }
    let cancellation = Cancellation()
    let signals = SignalWatch(cancellation: cancellation, quiet: options.quiet)
    let total = lines ? nil : jobs.count { batch.shard?.contains($0.index) ?? true }
    let progress = Progress(total: total, enabled: !options.quiet && Terminal.isInteractive)
    let tally = Locked(Summary())
    let start = Date()
    let onDone: @Sendable (JobOutcome) -> Void = { outcome in
      if let error = outcome.error, outcome.status == .failed { Terminal.error(error) }
      report?.write(outcome)
      progress.update(
        done: tally.withLock { summary in
          summary.add(outcome)
          return summary.total
        })
    }
    if lines {
      let records = decoder.jobs(inLinesAt: url).lazy.map { $0.result }
      runner.run(records, cancellation: cancellation, done: onDone)
    } else {
      runner.run(jobs.lazy.map { .success($0) }, cancellation: cancellation, done: onDone)
    }
    progress.finish()
    report?.close()
    signals.stop()
    var summary = tally.withLock { $0 }
    summary.seconds = Date().timeIntervalSince(start)
    if !options.quiet {
      Terminal.line(
        summary.line + (cancellation.isCancelled ? " (interrupted: the jobs not started were not run)" : ""))
      if let fallbacks = summary.fallbackLine { Terminal.line(fallbacks) }
    }
    return cancellation.isCancelled ? 130 : summary.exitStatus
  }

  static func invalid(_ diagnostics: [Diagnostic]) -> Int32 {
    for diagnostic in diagnostics { Terminal.error("\(diagnostic)") }
    Terminal.line("nothing written: the manifest has \(diagnostics.count) error\(diagnostics.count == 1 ? "" : "s")")
    return 2
  }
}
