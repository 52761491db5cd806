import Dispatch
import Foundation
import StampBatch
import StampFiles
import StampManifest

/// `stampcam render`: validate the whole manifest first, then render with progress, a report and a summary.
struct RenderCommand: Subcommand {
  let options: RenderOptions

  init(_ options: RenderOptions) {
    var options = options
    // `render --script JOB PHOTO...`: every operand is a photo, and the job's manifest is the script.
    if let script = options.script {
      options.photos.insert(options.manifest, at: 0)
      options.manifest = script
    }
    self.options = options
  }

  func run() -> Int32 {
    // Nothing is written unless the whole manifest is valid.
    guard let checked = checkedManifest() else { return ExitStatus.usage }
    let (jobs, lines, claims, file) = (checked.jobs, checked.lines, checked.claims, options.manifest)
    var batch = BatchOptions(outputFolder: options.out, concurrency: options.jobs, maxPixels: options.maxPixels)
    batch.overlay = options.overlay
    batch.resume = options.resume
    batch.manifest = file
    batch.shard = options.shard.flatMap(Shard.init)
    batch.protected = claims.protected
    batch.inputs = checked.inputs
    batch.stampCacheBytes = options.stampCacheMB << 20
    batch.jobTimeout = options.jobTimeout
    let runner: BatchRunner
    let report: ReportWriter?
    do {
      report = try options.report.map(ReportWriter.init(path:))
      if let path = options.report, path != "-" { batch.protect(path) }
      runner = try BatchRunner(options: batch)
    } catch {
      return CLI.fail("\(error)", status: ExitStatus.usage)
    }
    let cancellation = Cancellation()
    let signals = SignalWatch(cancellation: cancellation, quiet: options.quiet)
    let total = batch.shard?.count(of: checked.made) ?? checked.made
    let progress = Progress(total: total, enabled: !options.quiet && Terminal.isInteractive)
    let tally = Tally()
    let start = Date()
    // A job's report line is written under the same lock as its outputs are renamed into place; when the line
    // cannot be written, its outputs are removed again and no further job starts.
    let onDone: @Sendable (JobOutcome) -> Bool = { outcome in
      if let error = outcome.error, outcome.status == .failed { Terminal.error(error) }
      let noted = report?.write(outcome) ?? true
      if !noted { cancellation.cancel() }
      var counted = outcome
      if !noted, counted.status == .ok { counted.status = .failed }
      progress.update(done: tally.add(counted))
      return noted
    }
    // The render pass reads the manifest again (a JSON Lines file as held open), and each job over many photos
    // the photos the check found.
    let spool = checked.spool
    let sources: PhotoSources = { _ in
      spool?.nextJob() ?? .failure(PhotoFailure("the list of photos the check found was not kept"))
    }
    let records =
      lines.map { AnyIterator($0.lazy.map(\.result).makeIterator()) }
      ?? AnyIterator(jobs.lazy.map { Result<JobEntry, ManifestError>.success($0) }.makeIterator())
    let made = JobExpansion(records, file: file, checking: false, sources: sources)
    runner.run(IteratorSequence(made), cancellation: cancellation, record: onDone)
    progress.finish()
    report?.close()
    signals.stop()
    if let failure = report?.failure {
      Terminal.error(failure + " (outputs of jobs it could not list were removed; no later job was started)")
      return ExitStatus.failed
    }
    var summary = tally.current
    summary.seconds = Date().timeIntervalSince(start)
    if !options.quiet {
      Terminal.line(
        summary.line + (cancellation.isCancelled ? " (interrupted: the jobs not started were not run)" : ""))
      if let fallbacks = summary.fallbackLine { Terminal.line(fallbacks) }
    }
    // Cancelled with no signal seen: the status of an interrupt (SIGINT).
    let interrupted = cancellation.isCancelled ? ExitStatus.signal(SIGINT) : ExitStatus.batch(summary)
    return signals.received.map(ExitStatus.signal) ?? interrupted
  }
}
