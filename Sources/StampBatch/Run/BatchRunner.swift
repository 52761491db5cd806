import Foundation
import StampCore
import StampFiles
import StampManifest
import StampRender
import StampSystem

/// The options of one `render` run.
package struct BatchOptions: Sendable {
  /// The folder outputs go under.
  package var outputFolder: String
  /// Jobs in flight at once.
  package var concurrency: Int
  /// Photos and stamps with more pixels fail their job before decoding.
  package var maxPixels: Int
  /// Draw every job's overlay picture, whatever the manifest says.
  package var overlay = false
  /// Render only this shard's jobs.
  package var shard: Shard?
  /// Skip jobs whose outputs were made from the same job, inputs and stampcam version (a record in `.stampcam/`
  /// under the output folder says how each job's outputs were made); render the others again.
  package var resume = false
  /// Files no output may replace, besides each job's own inputs (see `OutputClaims.protected`).
  package var protected: Set<FileIdentity> = []
  /// The manifest's name as the user gave it, which starts every job's error (`m.json:41: job "x": ...`).
  package var manifest: String?

  /// Adds the file at `path` (the report, once it was opened) to `protected`.
  package mutating func protect(_ path: String) {
    if let identity = FileIdentity(path: path) { protected.insert(identity) }
  }
  /// Which loaders photos and stamps may use, how damaged they may be, and the folder they must lie in.
  package var inputs = InputPolicy()
  /// Bytes of decoded stamps kept between jobs (`--stamp-cache-mb`).
  package var stampCacheBytes = 128 << 20
  /// Seconds a job may run before it is stopped (`--job-timeout`); 0 for no limit.
  package var jobTimeout = 300.0

  /// Creates options; `concurrency` nil means the number of active cores.
  package init(outputFolder: String, concurrency: Int? = nil, maxPixels: Int = Limits().maxPixels) {
    self.outputFolder = outputFolder
    self.concurrency = concurrency ?? ProcessInfo.processInfo.activeProcessorCount
    self.maxPixels = maxPixels
  }
}

/// Renders jobs with bounded concurrency; a failing job fails alone.
package struct BatchRunner: Sendable {
  let options: BatchOptions
  let jobRenderer: JobRenderer
  /// The resume records and the claims on outputs, in `.stampcam` under the output folder.
  let ledger: ResumeLedger

  /// Prepares a run: creates the output folder and its `.stampcam`.
  package init(options: BatchOptions) throws {
    self.options = options
    try options.inputs.activate()
    let cache = StampCache(maxPixels: options.maxPixels, policy: options.inputs, budget: options.stampCacheBytes)
    var renderer = Renderer(cache: cache, maxPixels: options.maxPixels)
    renderer.inputs = options.inputs
    let paths = try OutputPaths(folder: options.outputFolder)
    ledger = try ResumeLedger(output: paths.folder)
    var jobRenderer = JobRenderer(renderer: renderer, paths: paths)
    jobRenderer.overlayAll = options.overlay
    jobRenderer.protected = options.protected
    self.jobRenderer = jobRenderer
  }

  /// Renders every job of the array and returns the outcomes in manifest order.
  package func run(_ jobs: [JobEntry], done: @escaping @Sendable (JobOutcome) -> Void = { _ in }) -> [JobOutcome] {
    let outcomes = Locked([JobOutcome]())
    run(
      jobs.lazy.map { .success($0) },
      done: { (outcome: JobOutcome) -> Void in
        outcomes.withLock { $0.append(outcome) }
        done(outcome)
      })
    let order = Dictionary(jobs.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    return outcomes.withLock { $0 }.sorted { order[$0.id, default: 0] < order[$1.id, default: 0] }
  }

  /// Renders jobs as they come (a streamed manifest is read no faster than it is rendered), calling `done` from
  /// worker threads, one call at a time, as each finishes or is skipped. Jobs outside the shard are not
  /// reported; an undecodable job (a JSON Lines line that changed since validation) fails alone. Stops taking
  /// jobs once `cancellation` is cancelled; jobs in flight finish.
  package func run<Jobs: Sequence<Result<JobEntry, ManifestError>>>(
    _ jobs: sending Jobs, cancellation: Cancellation = Cancellation(), done: @escaping @Sendable (JobOutcome) -> Void
  ) where Jobs.Iterator: SendableMetatype {
    run(jobs, cancellation: cancellation) { outcome -> Bool in
      done(outcome)
      return true
    }
  }

  /// `run` whose `record` (the report) says whether it could note the outcome: a job's outputs are renamed into
  /// place and recorded under one lock (see `TemporaryFiles.commit`), and removed again when `record` returns false,
  /// so that no output stays that the report does not list.
  /// `started`, when given, is told of each job of the shard as a worker takes it up, before anything of it is
  /// recorded.
  package func run<Jobs: Sequence<Result<JobEntry, ManifestError>>>(
    _ jobs: sending Jobs, cancellation: Cancellation = Cancellation(),
    started: (@Sendable (JobEntry) -> Void)? = nil, record: @escaping @Sendable (JobOutcome) -> Bool
  ) where Jobs.Iterator: SendableMetatype {
    let iterator = Locked(jobs.makeIterator())
    let report = Locked(())
    let jobRenderer = self.jobRenderer
    let options = self.options
    let ledger = self.ledger
    let running = Locked(0)
    WorkQueue.run(
      width: options.concurrency,
      next: {
        iterator.withLock { iterator -> Result<JobEntry, ManifestError>? in
          while !cancellation.isCancelled, let item = iterator.next() {
            if case .success(let job) = item, let shard = options.shard, !shard.contains(job.position) { continue }
            return item
          }
          return nil
        }
      },
      work: { item in
        // The cores are shared among the jobs running now: all of them for the last job of a batch.
        let inFlight = running.withLock { count -> Int in
          count += 1
          return count
        }
        defer { running.withLock { $0 -= 1 } }
        _ = try? Renderer.shareCores(among: inFlight)
        let note: @Sendable (JobOutcome) -> Bool = { outcome in report.withLock { _ in record(outcome) } }
        switch item {
        case .failure(let error):
          _ = note(JobOutcome(id: "?", status: .failed, outputs: [], error: error.description, seconds: 0))
        case .success(let job):
          started?(job)
          Self.perform(
            job, with: jobRenderer, ledger: ledger, options: options, cancellation: cancellation, record: note)
        }
      })
  }

  /// Renders the job's outputs to temporaries, then renames them into place and records the outcome together. A
  /// failure is told by the file at fault (see `RenderError.diagnosed`) and starts with where the job is: the
  /// manifest, the line the job starts on, and its id. The job stops (and fails alone) past `options.jobTimeout`,
  /// or when `cancellation` stops the jobs in flight.
  static func perform(
    _ job: JobEntry, with renderer: JobRenderer, options: BatchOptions, cancellation: Cancellation,
    record: (JobOutcome) -> Bool
  ) {
    let start = DispatchTime.now()
    func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 }
    func failed(_ error: Error, written: [String] = []) -> JobOutcome {
      failure(of: job, options: options, error, written: written, seconds: seconds())
    }
    // The job's stop switch: thrown by its timer, or by the batch once a signal's grace is over.
    let control = JobControl()
    let timeout = options.jobTimeout
    // The parser bounds the timeout to a day: the conversion cannot trap.
    let limit = timeout == timeout.rounded() && timeout < 1e9 ? String(Int(timeout)) : String(timeout)
    let timer = JobTimer(seconds: timeout) {
      control.stop(because: "the job was stopped after \(limit) s (--job-timeout)")
    }
    cancellation.track(control)
    defer {
      timer.cancel()
      cancellation.untrack(control)
    }
    let staged: [StagedFile]
    let path: RenderPath?
    let overlayFailure: Error?
    do {
      // The job's context: its own stop switch and stamp budget, the run's codecs and temporary files (those the
      // cancellation removes on a second signal).
      let context = renderer.context(control: control, temporaries: cancellation.temporaries)
      (staged, path, overlayFailure) = try renderer.stage(job, in: context)
    } catch {
      _ = record(failed(error))
      return
    }
    cancellation.temporaries.commit(staged, protecting: renderer.inputs(of: job)) { error in
      if let error { return record(failed(error)) }
      // The job fails for its overlay, with what it wrote listed (and no resume record: the overlay is missing).
      if let overlayFailure { return record(failed(overlayFailure, written: staged.map(\.display))) }
      var outcome = JobOutcome(id: job.id, status: .ok, outputs: staged.map(\.display), error: nil, seconds: seconds())
      outcome.path = path?.name
      outcome.fallback = path?.fallback
      return record(outcome)
    }
  }

  /// The job failed with `error`, told by the file at fault (see `RenderError.diagnosed`) after where the job is:
  /// the manifest, the line the job starts on, and its id.
  static func failure(
    of job: JobEntry, options: BatchOptions, _ error: Error, written: [String] = [], seconds: Double
  ) -> JobOutcome {
    let told = RenderError(error)?.diagnosed(reading: job.base) ?? error
    let place = (options.manifest.map { "\($0):\(job.line): " } ?? "") + "job \(JSONString.quoted(job.id)): "
    return JobOutcome(id: job.id, status: .failed, outputs: written, error: place + "\(told)", seconds: seconds)
  }
}
