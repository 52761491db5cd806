import StampFiles
import Foundation
import StampBatch
import StampCore
import StampManifest

/// Runs one command and returns the process's exit status; never lets a user's mistake become a crash.
enum CLI {
  static func main(_ arguments: [String]) -> Int32 {
    let command: Command
    do {
      command = try Parser.parse(arguments)
    } catch {
      return fail("\(error)", status: 2)
    }
    switch command {
    case .help(let topic):
      print(Usage.text(for: topic))
      return 0
    case .version:
      print(Usage.version)
      return 0
    case .schema:
      print(ManifestSchema.json, terminator: "")
      return 0
    case .validate(let manifest, let inputs):
      return validate(manifest, inputs: inputs)
    case .explain(let manifest, let job, let inputs):
      return explain(manifest, job: job, inputs: inputs)
    case .render(let options):
      return RenderCommand(options: options).run()
    case .importLog(let options):
      return ImportCommand(options: options).run()
    }
  }

  /// Prints `stampcam: error: <message>` to stderr and returns `status`.
  static func fail(_ message: String, status: Int32) -> Int32 {
    Terminal.error(message)
    return status
  }

  static func validate(_ path: String, inputs options: InputOptions = InputOptions()) -> Int32 {
    // The structure, then what only files can tell: writable output formats, inputs that exist (by stat) and lie
    // inside the input root, and, when they all do, the gestures replayed as render replays them, from the images'
    // headers read with the loaders render would use, under the same pixel limit.
    let inputs: InputPolicy
    do {
      inputs = try inputPolicy(root: options.inputRoot, untrustedLoaders: options.allowUntrustedLoaders)
    } catch {
      return fail(error.message, status: error.status)
    }
    let maxPixels = options.maxPixels
    // Stamps are often shared by many jobs: their sizes are kept, a bounded number at a time.
    var stampSizes: [String: StampSize] = [:]
    func stampSize(_ image: String) throws -> StampSize {
      if let size = stampSizes[image] { return size }
      let size = try JobCheck.headerSize(of: image, maxPixels: maxPixels, inputs: inputs)
      if stampSizes.count >= 1000 { stampSizes.removeAll() }
      stampSizes[image] = size
      return size
    }
    let diagnostics = ManifestDecoder().validate(contentsOf: URL(fileURLWithPath: path)) { job in
      let missing = JobCheck.inputs(of: job, file: path)
      let outside = inputs.root.map { InputCheck.confined(job, to: $0, file: path) } ?? []
      let replay =
        missing.isEmpty && outside.isEmpty
        ? JobCheck.replay(of: job, file: path, maxPixels: maxPixels, inputs: inputs, stampSize: stampSize) : []
      return JobCheck.outputs(of: job, file: path) + missing + outside + replay
    }
    guard diagnostics.isEmpty else {
      for diagnostic in diagnostics { Terminal.error("\(diagnostic)") }
      Terminal.line("\(diagnostics.count) error\(diagnostics.count == 1 ? "" : "s") in \(path)")
      return 2
    }
    Terminal.line("\(path): valid")
    return 0
  }

  /// A command's failure: the message printed and the exit status.
  struct Failure: Error {
    var message: String
    var status: Int32
  }

  /// The input policy render, validate and explain read photos and stamps with, in effect for libvips: the input
  /// root resolved (exit status 2 when it is not a folder), the untrusted loaders allowed or not.
  static func inputPolicy(root: String?, untrustedLoaders: Bool, failOn: InputPolicy.FailOn = .error)
    throws(Failure) -> InputPolicy
  {
    var inputs = InputPolicy(failOn: failOn, untrustedLoaders: untrustedLoaders)
    if let root {
      guard let resolved = try? InputPolicy.root(root) else {
        throw Failure(message: "--input-root \(root): not a folder that exists", status: 2)
      }
      inputs.root = resolved
    }
    do {
      try inputs.activate()
    } catch {
      throw Failure(message: "\(error)", status: 2)
    }
    return inputs
  }

  static func explain(_ path: String, job: String?, inputs options: InputOptions = InputOptions()) -> Int32 {
    let manifest: Manifest
    do {
      manifest = try ManifestDecoder().decode(contentsOf: URL(fileURLWithPath: path))
    } catch {
      for diagnostic in error.diagnostics { Terminal.error("\(diagnostic)") }
      return 2
    }
    var jobs = manifest.jobs
    if let job {
      jobs = jobs.filter { $0.id == job }
      guard !jobs.isEmpty else { return fail("\(path): no job with id '\(job)'", status: 2) }
    }
    // Every job that can be replayed is described; one that cannot gets an {"id", "error"} entry, is named on
    // stderr, and makes the exit status 1.
    let inputs: InputPolicy
    do {
      inputs = try inputPolicy(root: options.inputRoot, untrustedLoaders: options.allowUntrustedLoaders)
    } catch {
      return fail(error.message, status: error.status)
    }
    let explanation = Explainer(maxPixels: options.maxPixels, inputs: inputs).explain(jobs)
    print(explanation.json)
    for (job, message) in explanation.failures {
      Terminal.error("\(path):\(job.line): job \"\(job.id)\": \(message)")
    }
    return explanation.failures.isEmpty ? 0 : 1
  }
}
