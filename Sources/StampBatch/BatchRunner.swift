import Foundation
import StampManifest
import StampRender

/// Settings of one `render` run.
public struct BatchOptions: Sendable {
  /// The folder outputs go under.
  public var outputFolder: String
  /// Jobs in flight at once.
  public var concurrency: Int
  /// Photos and stamps with more pixels fail their job before decoding.
  public var maxPixels: Int
  /// Draw every job's overlay picture, whatever the manifest says.
  public var overlay = false
  /// Render only this shard's jobs.
  public var shard: Shard?
  /// Skip jobs whose outputs all exist (outputs appear only complete: they are renamed into place).
  public var resume = false
  /// Which loaders photos and stamps may use, how damaged they may be, and the folder they must lie in.
  public var inputs = InputPolicy()
  /// Bytes of decoded stamps kept between jobs (`--stamp-cache-mb`).
  public var stampCacheBytes = 128 << 20
  /// Seconds a job may run before it is stopped (`--job-timeout`); 0 for no limit.
  public var jobTimeout = 300.0

  /// Creates options; `concurrency` nil means the number of active cores.
  public init(outputFolder: String, concurrency: Int? = nil, maxPixels: Int = 100_000_000) {
    self.outputFolder = outputFolder
    self.concurrency = concurrency ?? ProcessInfo.processInfo.activeProcessorCount
    self.maxPixels = maxPixels
  }
}

/// Renders jobs with bounded concurrency; a failing job fails alone.
public struct BatchRunner: Sendable {
  let options: BatchOptions
  let jobRenderer: JobRenderer

  /// Prepares a run: creates the output folder.
  public init(options: BatchOptions) throws {
    self.options = options
    try options.inputs.activate()
    let cache = StampCache(maxPixels: options.maxPixels, policy: options.inputs, budget: options.stampCacheBytes)
    var renderer = Renderer(cache: cache, maxPixels: options.maxPixels)
    renderer.inputs = options.inputs
    var jobRenderer = JobRenderer(renderer: renderer, paths: try OutputPaths(folder: options.outputFolder))
    jobRenderer.overlayAll = options.overlay
    self.jobRenderer = jobRenderer
  }

  /// Renders every job of the array and returns the outcomes in manifest order.
  public func run(_ jobs: [JobEntry], done: @escaping @Sendable (JobOutcome) -> Void = { _ in }) -> [JobOutcome] {
    let outcomes = Locked([JobOutcome]())
    run(jobs.lazy.map { .success($0) }) { outcome in
      outcomes.withLock { $0.append(outcome) }
      done(outcome)
    }
    let order = Dictionary(jobs.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    return outcomes.withLock { $0 }.sorted { order[$0.id, default: 0] < order[$1.id, default: 0] }
  }

  /// Renders jobs as they come (a streamed manifest is read no faster than it is rendered), calling `done` from
  /// worker threads, one call at a time, as each finishes or is skipped. Jobs outside the shard are not
  /// reported; an undecodable job (a JSON Lines line that changed since validation) fails alone. Stops taking
  /// jobs once `cancellation` is cancelled; jobs in flight finish.
  public func run<Jobs: Sequence<Result<JobEntry, ManifestError>>>(
    _ jobs: Jobs, cancellation: Cancellation = Cancellation(), done: @escaping @Sendable (JobOutcome) -> Void
  ) {
    let iterator = Locked(jobs.makeIterator())
    let report = Locked(())
    let jobRenderer = self.jobRenderer
    let options = self.options
    WorkQueue.run(
      width: options.concurrency,
      next: {
        iterator.withLock { iterator -> Result<JobEntry, ManifestError>? in
          while !cancellation.isCancelled, let item = iterator.next() {
            if case .success(let job) = item, let shard = options.shard, !shard.contains(job.index) { continue }
            return item
          }
          return nil
        }
      },
      work: { item in
        let outcome: JobOutcome
        switch item {
        case .failure(let error):
          outcome = JobOutcome(id: "?", status: .failed, outputs: [], error: error.description, seconds: 0)
        case .success(let job):
          if options.resume, jobRenderer.isComplete(job) {
            outcome = JobOutcome(
              id: job.id, status: .skipped, outputs: jobRenderer.outputs(of: job), error: nil, seconds: 0)
          } else {
            outcome = Self.perform(job, with: jobRenderer, timeout: options.jobTimeout, cancellation: cancellation)
          }
        }
        report.withLock { _ in done(outcome) }
      })
  }

  static func perform(
    _ job: JobEntry, with renderer: JobRenderer, timeout: Double = 0, cancellation: Cancellation = Cancellation()
  ) -> JobOutcome {
    let start = DispatchTime.now()
    func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 }
    // The job's stop switch: thrown by its timer, or by the batch once a signal's grace is over.
    let control = JobControl()
    // The parser bounds the timeout to a day: the conversion cannot trap.
    let limit = timeout == timeout.rounded() && timeout < 1e9 ? String(Int(timeout)) : String(timeout)
    let timer = DispatchWorkItem { control.stop(because: "the job was stopped after \(limit) s (--job-timeout)") }
    if timeout > 0 { DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer) }
    cancellation.track(control)
    defer {
      timer.cancel()
      cancellation.untrack(control)
    }
    do {
      let outputs = try control.run { try renderer.render(job) }
      return JobOutcome(id: job.id, status: .ok, outputs: outputs, error: nil, seconds: seconds())
    } catch {
      return JobOutcome(id: job.id, status: .failed, outputs: [], error: "\(error)", seconds: seconds())
    }
  }
}
