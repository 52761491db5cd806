import StampFiles
import StampManifest

extension BatchRunner {
  /// The reason given for a job skipped because another run made its very outputs while this one waited for them.
  static let madeMeanwhile = "skipped: up to date, made by another run meanwhile"

  /// How long a job waits for outputs another run is writing: its `--job-timeout` (that run's job is bounded the
  /// same way, when its runs share the options), or `maxClaimWait` with no timeout; never past a signal.
  static func claimWait(_ options: BatchOptions, _ cancellation: Cancellation) -> ResumeLedger.Wait {
    let seconds = options.jobTimeout > 0 ? options.jobTimeout : maxClaimWait
    return ResumeLedger.Wait(seconds: seconds, cancelled: { cancellation.isCancelled })
  }

  /// The wait for another run's outputs when jobs have no timeout (`--job-timeout 0`), in seconds.
  static let maxClaimWait = 300.0

  /// Renders `job` unless `resume` is on and its record shows its outputs were made from the same job, inputs,
  /// policy and version; records how the outputs were made after a render that succeeds. All of it happens under
  /// the job's claim on its outputs (see `ResumeLedger.claim`): a job whose output another run is writing waits for
  /// it (see `claimWait`) and is then skipped when that run made this job's very outputs, rendered otherwise; it
  /// fails when the other run holds the output past the wait.
  /// The outcome's `resume` says why the job was skipped or rendered when `resume` is on.
  static func perform(
    _ job: JobEntry, with renderer: JobRenderer, ledger: ResumeLedger?, options: BatchOptions,
    cancellation: Cancellation, record: (JobOutcome) -> Bool
  ) {
    guard let ledger else {
      return perform(job, with: renderer, options: options, cancellation: cancellation, record: record)
    }
    let outputs = renderer.outputs(of: job).map(\.path)
    let claim: ResumeLedger.Claim
    do {
      claim = try ledger.claim(outputs, waiting: claimWait(options, cancellation))
    } catch {
      _ = record(failure(of: job, options: options, error, seconds: 0))
      return
    }
    defer { claim.release() }
    let fingerprint = ResumeFingerprint(job: job, renderer: renderer)
    var reason: String?
    // A job whose outputs another run was writing: that run's record says whether they are this job's very outputs
    // (the same job, inputs, policy and version: byte for byte what this run would write), with --resume or not.
    if options.resume || claim.waited > 0 {
      let verdict = ledger.verdict(for: job, outputs: outputs, fingerprint: fingerprint)
      if verdict == .upToDate {
        var skipped = JobOutcome(id: job.id, status: .skipped, outputs: outputs, error: nil, seconds: claim.waited)
        skipped.resume = claim.waited > 0 ? Self.madeMeanwhile : verdict.report
        _ = record(skipped)
        return
      }
      if options.resume { reason = verdict.report }
    }
    ledger.forget(job)
    // The record is written with the report line, once the outputs are in place (see `TemporaryFiles.commit`), and
    // only when the inputs are still the files the fingerprint describes: one replaced during the render may have
    // been read in either version, so no record then, and the next `--resume` renders the job again.
    perform(job, with: renderer, options: options, cancellation: cancellation) { outcome in
      var outcome = outcome
      outcome.resume = reason
      if outcome.status == .ok, let fingerprint, ResumeFingerprint.inputs(of: job) == fingerprint.inputs {
        ledger.remember(job, outputs: outcome.outputs, fingerprint: fingerprint)
      }
      return record(outcome)
    }
  }
}

extension BatchRunner {
  /// Whether `--resume` would skip `job` now: its outputs are up to date with its record (the same test the run
  /// makes, without claiming the outputs). For the count a run announces before it starts.
  package func isUpToDate(_ job: JobEntry) -> Bool {
    let outputs = jobRenderer.outputs(of: job).map(\.path)
    let fingerprint = ResumeFingerprint(job: job, renderer: jobRenderer)
    return ledger.verdict(for: job, outputs: outputs, fingerprint: fingerprint) == .upToDate
  }

  /// Whether `job` is one this run renders (its shard's).
  package func takes(_ job: JobEntry) -> Bool {
    options.shard?.contains(job.position) ?? true
  }
}
