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
    let renderer = Renderer(cache: StampCache(maxPixels: options.maxPixels), maxPixels: options.maxPixels)
    var jobRenderer = JobRenderer(renderer: renderer, paths: try OutputPaths(folder: options.outputFolder))
    jobRenderer.overlayAll = options.overlay
    self.jobRenderer = jobRenderer
  }

  /// Renders every job, calling `done` (from worker threads, one call at a time) as each finishes; returns the
  /// outcomes in manifest order.
  public func run(_ jobs: [JobEntry], done: @escaping @Sendable (JobOutcome, Int) -> Void = { _, _ in })
    -> [JobOutcome]
  {
    let next = Locked(0)
    let outcomes = Locked([JobOutcome?](repeating: nil, count: jobs.count))
    let finished = Locked(0)
    let jobRenderer = self.jobRenderer
    WorkQueue.run(
      width: options.concurrency,
      next: {
        next.withLock { index -> Int? in
          guard index < jobs.count else { return nil }
          defer { index += 1 }
          return index
        }
      },
      work: { index in
        let outcome = Self.perform(jobs[index], with: jobRenderer)
        outcomes.withLock { $0[index] = outcome }
        finished.withLock { count in
          count += 1
          done(outcome, count)
        }
      })
    return outcomes.withLock { $0.compactMap { $0 } }
  }

  static func perform(_ job: JobEntry, with renderer: JobRenderer) -> JobOutcome {
    let start = DispatchTime.now()
    func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 }
    do {
      let outputs = try renderer.render(job)
      return JobOutcome(id: job.id, status: .ok, outputs: outputs, error: nil, seconds: seconds())
    } catch {
      return JobOutcome(id: job.id, status: .failed, outputs: [], error: "\(error)", seconds: seconds())
    }
  }
}
