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
    let (jobs, lines, claims, file) = (checked.jobs, checked.lines, checked.claims, checked.file)
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
    let events: EventStream?
    do {
      report = try options.report.map { try ReportWriter(path: $0) }
      if let path = options.report, path != "-" { batch.protect(path) }
      events = try options.events.map(EventStream.init(path:))
      if let path = options.events, path != "-" { batch.protect(path) }
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
    // The jobs made, as the render pass will take them (see below): read once more to count those --resume will
    // skip, when a program asked to be told.
    let spool = checked.spool
    let sources: PhotoSources = { _ in
      spool?.nextJob() ?? .failure(PhotoFailure("the list of photos the check found was not kept"))
    }
    func madeJobs() -> JobExpansion<AnyIterator<Result<JobEntry, ManifestError>>> {
      let records =
        lines.map { AnyIterator($0.lazy.map(\.result).makeIterator()) }
        ?? AnyIterator(jobs.lazy.map { Result<JobEntry, ManifestError>.success($0) }.makeIterator())
      return JobExpansion(records, file: file, checking: false, sources: sources)
    }
    if let events {
      var resumed = 0
      if options.resume {
        for case .success(let job) in IteratorSequence(madeJobs()) where runner.takes(job) && runner.isUpToDate(job) {
          resumed += 1
        }
        spool?.rewind()
      }
      if !events.started(jobs: total, resumed: resumed, shard: options.shard) { cancellation.cancel() }
    }
    // A job's report line is written under the same lock as its outputs are renamed into place; when the line
    // cannot be written, its outputs are removed again and no further job starts.
    let onDone: @Sendable (JobOutcome) -> Bool = { outcome in
      if let error = outcome.error, outcome.status == .failed { Terminal.error(error) }
      let noted = report?.write(outcome) ?? true
      if !noted || events?.ended(outcome) == false { cancellation.cancel() }
      var counted = outcome
      if !noted, counted.status == .ok { counted.status = .failed }
      progress.update(done: tally.add(counted))
      return noted
    }
    // The render pass reads the manifest again (a JSON Lines file as held open), and each job over many photos
    // the photos the check found.
    var started: (@Sendable (JobEntry) -> Void)?
    if let events {
      started = { job in
        if !events.started(job) { cancellation.cancel() }
      }
    }
    runner.run(IteratorSequence(madeJobs()), cancellation: cancellation, started: started, record: onDone)
    progress.finish()
    report?.close()
    signals.stop()
    var summary = tally.current
    summary.seconds = Date().timeIntervalSince(start)
    if let failure = report?.failure {
      Terminal.error(failure + " (outputs of jobs it could not list were removed; no later job was started)")
      Self.finish(events, summary, interrupted: false, status: ExitStatus.failed)
      return ExitStatus.failed
    }
    // The run stops itself when its events cannot be written; that is a lost output, not an interrupt.
    let eventsLost = events?.failure != nil
    if !options.quiet {
      let stopped = cancellation.isCancelled && !eventsLost ? " (interrupted: the jobs not started were not run)" : ""
      Terminal.line(summary.line + stopped)
      if let fallbacks = summary.fallbackLine { Terminal.line(fallbacks) }
    }
    // Cancelled with no signal seen: the status of an interrupt (SIGINT), unless the events were lost (`finish`
    // makes that 1, and standard output's loss 3).
    let interrupted =
      cancellation.isCancelled && !eventsLost ? ExitStatus.signal(SIGINT) : ExitStatus.batch(summary)
    let status = signals.received.map(ExitStatus.signal) ?? interrupted
    return Self.finish(events, summary, interrupted: cancellation.isCancelled, status: status)
  }

  /// Writes the events' last line and closes them; the exit status, 1 instead of 0 when they could not be written
  /// (their reason on stderr).
  @discardableResult
  static func finish(_ events: EventStream?, _ summary: Summary, interrupted: Bool, status: Int32) -> Int32 {
    guard let events else { return status }
    events.finished(summary, interrupted: interrupted, status: status)
    events.close()
    guard let failure = events.failure else { return status }
    Terminal.error(failure + " (no later job was started)")
    return status == ExitStatus.success ? ExitStatus.failed : status
  }
}
