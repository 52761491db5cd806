import Foundation
import StampBatch
import StampManifest

/// `stampcam render`: validate the whole manifest first, then render with progress and a summary.
struct RenderCommand {
  let options: RenderOptions

  func run() -> Int32 {
    let manifest: Manifest
    do {
      manifest = try ManifestDecoder().decode(contentsOf: URL(fileURLWithPath: options.manifest))
    } catch {
      for diagnostic in error.diagnostics { Terminal.error("\(diagnostic)") }
      Terminal.line("nothing written: the manifest has \(error.diagnostics.count) error(s)")
      return 2
    }
    let runner: BatchRunner
    do {
      var batch = BatchOptions(outputFolder: options.out, concurrency: options.jobs, maxPixels: options.maxPixels)
      batch.overlay = options.overlay
      runner = try BatchRunner(options: batch)
    } catch {
      return CLI.fail("\(error)", status: 2)
    }
    let start = Date()
    let total = manifest.jobs.count
    let progress = Progress(total: total, enabled: !options.quiet && Terminal.isInteractive)
    let outcomes = runner.run(manifest.jobs) { outcome, done in
      if let error = outcome.error { Terminal.error(error) }
      progress.update(done: done)
    }
    progress.finish()
    let summary = Summary(outcomes, seconds: Date().timeIntervalSince(start))
    if !options.quiet { Terminal.line(summary.line) }
    return summary.exitStatus
  }
}
