import Foundation
import StampBatch
import StampFiles
import StampManifest

/// `stampcam explain`: what the recognizers saw and where everything ended, as JSON on stdout, without decoding any
/// photo.
struct ExplainCommand: Subcommand {
  var manifest = ""
  var job: String?
  var inputs = InputOptions()

  static let name = "explain"
  static let forms = [
    Form(
      operand: "MANIFEST",
      options: [
        .value(
          "--job", "ID",
          "describe only the job with this id (a job over many photos: each of its photos' jobs, or one, as "
            + "JOBID/PHOTO)"
        ) { $0.job = $1 }
      ]
        + InputOptions.options(at: \ExplainCommand.inputs),
      start: ExplainCommand(), setOperand: { $0.manifest = $1 })
  ]

  static let help = Help(
    about: """
      Replays the gestures of every job (or just job ID) without decoding any photo, and prints JSON:
        {"jobs": [{"id", "gestures": [{"kind", "t", "at", "target"}],
                   "stamps": [{"id", "center": [x, y], "size": [w, h], "scale", "rotation"}],
                   "viewport": {"zoom", "visible": [x, y, w, h]}}]}
      Positions and sizes are image pixels; rotation is degrees, clockwise positive; `size` is before `scale`.
      A job that cannot be replayed (an unreadable photo, a gesture on a covered stamp) is listed as
      {"id", "error"} in its place and named on stderr; the other jobs are described all the same, and the exit
      status is 1. Exit status 0 when every job is described, 2 for an invalid manifest, 3 when stdout cannot be
      written (the JSON is lost; see 'stampcam --help').
      --max-pixels, --input-root and --allow-untrusted-loaders read the photos and stamps as render reads them with
      the same options. MANIFEST - (or /dev/stdin) reads it from standard input, as render - does; errors name it
      "-".
      """)

  func run() -> Int32 {
    // A piped manifest (`-`) is read into a private temporary file, removed at once, and named `-`.
    let isPiped = PipedManifest.isStandardInput(self.manifest)
    let file = isPiped ? PipedManifest.name : self.manifest
    let manifest: Manifest
    do {
      if isPiped {
        manifest = Manifest(jobs: try PipedManifest(spoolingIn: nil).allJobs(ManifestDecoder()))
      } else {
        manifest = try ManifestDecoder().decode(contentsOf: URL(fileURLWithPath: self.manifest))
      }
    } catch {
      for diagnostic in error.diagnostics { Terminal.error("\(diagnostic)") }
      return ExitStatus.usage
    }
    // A job over many photos is described photo by photo, each as the job render makes of it; --job names a
    // listed job, a job over many photos (all its photos), or one photo's job ("wm/2024/a.jpg").
    var jobs: [JobEntry] = []
    var made = JobExpansion(
      manifest.jobs.lazy.map { .success($0) }.makeIterator(), file: file, checking: false,
      sources: { job in
        if isPiped, let refusal = PipedManifest.listRefusal(job) { return .failure(refusal) }
        return PhotoSet.photos(of: job)
      })
    while let record = made.next() {
      switch record {
      case .failure(let error):
        for diagnostic in error.diagnostics { Terminal.error("\(diagnostic)") }
        return ExitStatus.usage
      case .success(let entry):
        let template = entry.photo.map { String(decoding: entry.id.utf8.dropLast($0.utf8.count + 1), as: UTF8.self) }
        if let job, entry.id != job, template != job { continue }
        jobs.append(entry)
      }
    }
    if let job, jobs.isEmpty {
      return CLI.fail("\(file): no job with id '\(job)'", status: ExitStatus.usage)
    }
    // Every job that can be replayed is described; one that cannot gets an {"id", "error"} entry, is named on
    // stderr, and makes the exit status 1.
    let policy: InputPolicy
    do {
      policy = try InputOptions.policy(root: inputs.inputRoot, untrustedLoaders: inputs.allowUntrustedLoaders)
    } catch {
      return CLI.fail(error.message, status: error.status)
    }
    let explanation = Explainer(maxPixels: inputs.maxPixels, inputs: policy).explain(jobs)
    StandardStream.output.write(explanation.json + "\n")
    for (job, message) in explanation.failures {
      Terminal.error("\(file):\(job.line): job \"\(job.id)\": \(message)")
    }
    return explanation.failures.isEmpty ? ExitStatus.success : ExitStatus.failed
  }
}

extension Command {
  static func explain(manifest: String, job: String?, inputs: InputOptions = InputOptions()) -> Command {
    Command(ExplainCommand(manifest: manifest, job: job, inputs: inputs))
  }
}
