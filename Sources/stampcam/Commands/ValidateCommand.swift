import Foundation
import StampBatch
import StampCore
import StampManifest

/// `stampcam validate`: every error of a manifest at once, short of decoding pixels.
struct ValidateCommand: Subcommand {
  var manifest = ""
  var inputs = InputOptions()

  static let name = "validate"
  static let forms = [
    Form(
      operand: "MANIFEST", options: InputOptions.options(at: \ValidateCommand.inputs), start: ValidateCommand(),
      setOperand: { $0.manifest = $1 })
  ]

  func run() -> Int32 {
    // The structure, then what only files can tell: writable output formats, inputs that exist (by stat) and lie
    // inside the input root, and, when they all do, the gestures replayed as render replays them, from the images'
    // headers read with the loaders render would use, under the same pixel limit.
    let policy: InputPolicy
    do {
      policy = try InputOptions.policy(root: inputs.inputRoot, untrustedLoaders: inputs.allowUntrustedLoaders)
    } catch {
      return CLI.fail(error.message, status: error.status)
    }
    let path = manifest
    let maxPixels = inputs.maxPixels
    // Stamps are often shared by many jobs: their sizes are kept, a bounded number at a time.
    var stampSizes: [String: StampSize] = [:]
    func stampSize(_ image: String) throws -> StampSize {
      if let size = stampSizes[image] { return size }
      let size = try JobCheck.headerSize(of: image, maxPixels: maxPixels, inputs: policy)
      if stampSizes.count >= 1000 { stampSizes.removeAll() }
      stampSizes[image] = size
      return size
    }
    let diagnostics = ManifestDecoder().validate(contentsOf: URL(fileURLWithPath: path)) { job in
      let missing = JobCheck.inputs(of: job, file: path)
      let outside = policy.root.map { InputCheck.confined(job, to: $0, file: path) } ?? []
      let replay =
        missing.isEmpty && outside.isEmpty
        ? JobCheck.replay(of: job, file: path, maxPixels: maxPixels, inputs: policy, stampSize: stampSize) : []
      return JobCheck.outputs(of: job, file: path) + missing + outside + replay
    }
    guard diagnostics.isEmpty else {
      for diagnostic in diagnostics { Terminal.error("\(diagnostic)") }
      Terminal.line("\(diagnostics.count) error\(diagnostics.count == 1 ? "" : "s") in \(path)")
      return ExitStatus.usage
    }
    Terminal.line("\(path): valid")
    return ExitStatus.success
  }
}

extension Command {
  static func validate(manifest: String, inputs: InputOptions = InputOptions()) -> Command {
    Command(ValidateCommand(manifest: manifest, inputs: inputs))
  }
}
