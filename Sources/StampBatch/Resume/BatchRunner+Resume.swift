import StampFiles
import StampManifest

extension BatchRunner {
  /// Renders `job` unless `resume` is on and its record shows its outputs were made from the same job, inputs and
  /// version; records how the outputs were made after a render that succeeds. The outcome's `resume` says why the
  /// job was skipped or rendered when `resume` is on.
  static func perform(
    _ job: JobEntry, with renderer: JobRenderer, ledger: ResumeLedger?, options: BatchOptions,
    cancellation: Cancellation, record: (JobOutcome) -> Bool
  ) {
    guard let ledger else {
      return perform(job, with: renderer, options: options, cancellation: cancellation, record: record)
    }
    let fingerprint = ResumeFingerprint(job: job, renderer: renderer)
    let outputs = renderer.outputs(of: job)
    var reason: String?
    if options.resume {
      let verdict = ledger.verdict(for: job, outputs: outputs, fingerprint: fingerprint)
      if verdict == .upToDate {
        var skipped = JobOutcome(id: job.id, status: .skipped, outputs: outputs, error: nil, seconds: 0)
        skipped.resume = verdict.report
        _ = record(skipped)
        return
      }
      reason = verdict.report
    }
    ledger.forget(job)
    // The record is written with the report line, once the outputs are in place (see `TemporaryFiles.commit`).
    perform(job, with: renderer, options: options, cancellation: cancellation) { outcome in
      var outcome = outcome
      outcome.resume = reason
      if outcome.status == .ok, let fingerprint {
        ledger.remember(job, outputs: outcome.outputs, fingerprint: fingerprint)
      }
      return record(outcome)
    }
  }
}
