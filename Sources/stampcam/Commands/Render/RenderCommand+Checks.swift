import Foundation
import StampBatch
import StampFiles
import StampManifest

extension RenderCommand {
  /// The manifest once it is known valid as a whole, with what the batch needs from the checks.
  struct Checked {
    /// The jobs of a JSON manifest; empty for JSON Lines, which are streamed again to render.
    var jobs: [JobEntry]
    /// A JSON Lines manifest, held open: the render's pass reads the file validated, or stops where it changed.
    var lines: JSONLinesReader?
    var claims: OutputClaims
    var inputs: InputPolicy
    /// The photos the check found for each job over many photos, for the render pass (nil when there is none).
    var spool: PhotoSpool?
    /// How many jobs the manifest makes, each photo of a job over many photos counted.
    var made: Int
    /// The manifest as errors name it: its path as given, or `-` when piped on standard input.
    var file: String
    /// A manifest piped on standard input, kept in `--out/.stampcam` for the render pass; nil for a file.
    var piped: PipedManifest?
  }

  /// Checks the whole manifest before anything is written; nil, the errors printed, when it cannot be rendered
  /// (exit status 2). JSON Lines are validated streaming, so memory does not grow with the number of jobs.
  func checkedManifest() -> Checked? {
    let url = URL(fileURLWithPath: options.manifest)
    var decoder = ManifestDecoder()
    decoder.overlayForEveryJob = options.overlay
    let isPiped = PipedManifest.isStandardInput(options.manifest)
    let file = isPiped ? PipedManifest.name : options.manifest
    // A piped manifest is kept in --out/.stampcam, made for it: removed again when the manifest is invalid.
    let outExisted = FileManager.default.fileExists(atPath: options.out)
    let out = options.out
    func rejected(_ diagnostics: [Diagnostic]) -> Checked? {
      if isPiped { Self.removeMadeFolders(out: out, existed: outExisted) }
      return Self.invalid(diagnostics)
    }
    let inputs: InputPolicy
    do {
      inputs = try InputOptions.policy(
        root: options.inputRoot, untrustedLoaders: options.allowUntrustedLoaders, failOn: options.failOn)
    } catch {
      Terminal.error(error.message)
      return nil
    }
    let root = inputs.root
    // Before anything is made or written: an --out of 3,000 components made 2,000 folders before it failed.
    if let problem = OutputPaths.problem(withFolder: options.out) {
      Terminal.error("--out \(options.out): \(problem)")
      return nil
    }
    // No output, overlay, view or report may be any input, the manifest or another output: checked as files,
    // job by job, while the manifest is validated.
    // A piped manifest is read once, to its end, into --out/.stampcam, and both passes read that file.
    var piped: PipedManifest?
    if isPiped {
      do {
        let folder: Folder
        do {
          folder = try PrivateFolder.open(under: options.out)
        } catch {
          Terminal.error("\(error)")
          return nil
        }
        piped = try PipedManifest(spoolingIn: folder, limits: decoder.limits)
      } catch {
        return rejected(error.diagnostics)
      }
    }
    let lines: JSONLinesReader?
    if let piped {
      lines = piped.format == .jsonLines && options.script == nil ? piped.lines(decoder) : nil
    } else {
      lines =
        ManifestFormat(path: options.manifest) == .jsonLines && options.script == nil
        ? decoder.jobs(inLinesHeldOpenAt: url) : nil
    }
    // The claims keep no job's id: one whose file a later job meets is made again from the manifest to name it.
    var jobs: [JobEntry] = []
    let jsonLines = lines != nil
    let again = { [decoder, piped] (position: Int) -> JobEntry? in
      if jsonLines {
        let reader = piped?.lines(decoder) ?? decoder.jobs(inLinesAt: url)
        return JobExpansion.job(at: position, in: reader.lazy.map(\.result).makeIterator(), file: file)
      }
      return JobExpansion.job(at: position, in: jobs.lazy.map { .success($0) }.makeIterator(), file: file)
    }
    let claims: OutputClaims
    do {
      claims = try OutputClaims(
        out: options.out, manifest: isPiped ? nil : file, file: file, report: options.report, events: options.events,
        naming: again)
    } catch {
      return rejected(error.diagnostics)
    }
    let overlay = options.overlay
    let check = { (job: JobEntry) -> [Diagnostic] in
      JobCheck.outputs(of: job, file: file, overlayForEveryJob: overlay)
        + claims.add(job, overlayForEveryJob: overlay)
        + (root.map { InputCheck.confined(job, to: $0, file: file) } ?? [])
    }
    let records: AnyIterator<Result<JobEntry, ManifestError>>
    if let lines {
      records = AnyIterator(lines.lazy.map(\.result).makeIterator())
    } else {
      do {
        if let piped { jobs = try piped.allJobs(decoder) } else { jobs = try decoder.decode(contentsOf: url).jobs }
      } catch {
        return rejected(error.diagnostics)
      }
      if options.script != nil {
        guard let job = Self.script(jobs, file: file, photos: options.photos) else { return nil }
        jobs = [job]
      }
      records = AnyIterator(jobs.lazy.map { .success($0) }.makeIterator())
    }
    // A job over many photos: the list found now is written down, and the render pass renders that list.
    var spool: PhotoSpool?
    var spoolFailure: String?
    let sources: PhotoSources = { job in
      if spool == nil, spoolFailure == nil {
        do {
          spool = try PhotoSpool()
        } catch {
          spoolFailure = "\(error)"
        }
      }
      guard let spool else { return .failure(PhotoFailure(spoolFailure ?? "")) }
      if isPiped, let refusal = PipedManifest.listRefusal(job) { return .failure(refusal) }
      return PhotoSet.photos(of: job).map(spool.recording)
    }
    let (diagnostics, made) = decoder.validate(records, file: file, sources: sources, checking: check)
    if !diagnostics.isEmpty { return rejected(diagnostics) }
    spool?.rewind()
    if let failure = spool?.failure { return rejected([Diagnostic(file: file, message: failure)]) }
    return Checked(
      jobs: jobs, lines: lines, claims: claims, inputs: inputs, spool: spool, made: made, file: file, piped: piped)
  }

  /// The one job of a `--script` manifest as a job over `photos`: its own outputs when they are templates, else
  /// `{dir}/{stem}.jpg` (and its view beside it as `{dir}/{stem}-screen.EXT`); nil, the error printed, unless the
  /// manifest has exactly one job.
  static func script(_ jobs: [JobEntry], file: String, photos: [String]) -> JobEntry? {
    guard jobs.count == 1, var job = jobs.first else {
      Terminal.error(
        "\(file): --script needs a manifest of exactly one job, not \(jobs.count) (keep the job to apply, or render "
          + "the manifest itself)")
      return nil
    }
    if job.photos == nil {
      job.output = OutputTemplate.defaultOutput
      job.viewOutput = job.viewOutput.map { view in
        let ext = view.utf8.lastIndex(of: UInt8(ascii: ".")).map { String(view[$0...]) } ?? ".jpg"
        return "{dir}/{stem}-screen" + (ext.contains("/") ? ".jpg" : ext)
      }
    }
    job.base = ""
    job.photos = PhotoSet(.paths(photos))
    return job
  }

  /// Removes `.stampcam` and the output folder `out` when this run made them and they are empty again.
  static func removeMadeFolders(out: String, existed: Bool) {
    guard !existed else { return }
    rmdir(out + "/.stampcam")
    rmdir(out)
  }

  /// Prints the manifest's errors and that nothing was written.
  static func invalid(_ diagnostics: [Diagnostic]) -> Checked? {
    for diagnostic in diagnostics { Terminal.error("\(diagnostic)") }
    Terminal.line("nothing written: the manifest has \(diagnostics.count) error\(diagnostics.count == 1 ? "" : "s")")
    return nil
  }
}
