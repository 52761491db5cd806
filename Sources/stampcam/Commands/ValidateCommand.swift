import Foundation
import StampBatch
import StampCore
import StampFiles
import StampManifest

/// `stampcam validate`: every error of a manifest at once, short of decoding pixels.
struct ValidateCommand: Subcommand {
  var manifest = ""
  var overlay = false
  var inputs = InputOptions()

  static let name = "validate"
  static let forms = [
    Form(
      operand: "MANIFEST",
      options: [
        .flag(
          "--overlay",
          "check every job's <output>.overlay.<ext> against the other outputs, as render --overlay writes them (a "
            + "job with \"overlay\": true is checked without it)"
        ) { $0.overlay = true }
      ] + InputOptions.options(at: \ValidateCommand.inputs), start: ValidateCommand(),
      setOperand: { $0.manifest = $1 })
  ]

  static let help = Help(
    about: """
      Checks MANIFEST without rendering anything and prints every error at once, each with the file, the line and the
      JSON path, e.g.
        manifest.json:12: jobs[3].stamps[0].centre: unknown key (did you mean "center"?)
        manifest.json:40: jobs[9].gestures[0]: stamp "a" is covered by the stamps above it (...)

      It checks everything render checks short of decoding pixels:
        - the JSON, keys, types and ranges (lengths, scales and durations at least 0.001, coordinates within
          +-1000000, at most 100000 steps), ids, stamp names, touch order, output paths and formats, a
          viewOutput of at most 100000000 pixels;
        - that every photo and stamp exists, is readable and (with --input-root) lies inside the input root;
        - for each job whose inputs exist, its images' headers (in a format render reads, at most --max-pixels
          pixels) and its gestures replayed exactly as render replays them: a gesture that cannot be played, a
          stamp drawn over 1000000 pixels across, an output larger than its format holds (JPEG 65500 pixels a
          side, WebP 16383, AVIF and HEIC 16384), or in a format this machine's libvips cannot write;
        - that no two outputs, views or overlays are one file, or a file where another needs a folder, and none
          is deeper than 64 components.
      Give it the --overlay, --max-pixels, --input-root and --allow-untrusted-loaders the render will have (they
      mean the same as there).
      Only render finds what needs pixels or --out. Before anything is written (exit status 2): an --out that
      cannot be a folder, a --report in the way, an output that is an input or another output as a file (through
      links). While rendering, failing their job alone (exit status 1): a photo damaged past its header, an output
      that would leave --out through a symbolic link, a failed write.
      A photo or stamp that is missing or cannot be opened makes the manifest invalid here; render fails only the
      jobs that use it (exit status 1, the other jobs written).
      MANIFEST - (or /dev/stdin) reads it from standard input, as render - does (kept in a file of its own in
      $TMPDIR while it is checked, its name removed at once); errors name it "-".
      Exit status 0 when the manifest is valid, 2 otherwise.
      """,
    after: """
      EXAMPLE
        stampcam validate jobs.jsonl --max-pixels 50000000 --input-root photos
      """)

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
    let isPiped = PipedManifest.isStandardInput(manifest)
    let path = isPiped ? PipedManifest.name : manifest
    let maxPixels = inputs.maxPixels
    // Stamps are often shared by many jobs: their sizes are kept, a bounded number at a time.
    var stampSizes: [PathKey: StampSize] = [:]
    func stampSize(_ image: String) throws -> StampSize {
      if let size = stampSizes[PathKey(image)] { return size }
      let size = try JobCheck.headerSize(of: image, maxPixels: maxPixels, inputs: policy)
      if stampSizes.count >= 1000 { stampSizes.removeAll() }
      stampSizes[PathKey(image)] = size
      return size
    }
    var decoder = ManifestDecoder()
    decoder.overlayForEveryJob = overlay
    let overlay = overlay
    let check = { (job: JobEntry) -> [Diagnostic] in
      let missing = JobCheck.inputs(of: job, file: path, root: policy.root)
      let outside = policy.root.map { InputCheck.confined(job, to: $0, file: path) } ?? []
      let replay =
        missing.isEmpty && outside.isEmpty
        ? JobCheck.replay(of: job, file: path, maxPixels: maxPixels, inputs: policy, stampSize: stampSize) : []
      return JobCheck.outputs(of: job, file: path, overlayForEveryJob: overlay) + missing + outside + replay
    }
    let (diagnostics, made, photos) =
      isPiped
      ? Self.validatePiped(decoder, checking: check)
      : decoder.validateCounting(contentsOf: URL(fileURLWithPath: path), checking: check)
    guard diagnostics.isEmpty else {
      for diagnostic in diagnostics { Terminal.error("\(diagnostic)") }
      Terminal.line("\(diagnostics.count) error\(diagnostics.count == 1 ? "" : "s") in \(path)")
      return ExitStatus.usage
    }
    let jobs = "\(made) job\(made == 1 ? "" : "s")"
    let many = photos == 0 ? "" : ", \(photos) of them made from jobs over many photos"
    Terminal.line("\(path): valid (\(jobs)\(many))")
    return ExitStatus.success
  }
}

extension ValidateCommand {
  /// `validateCounting` for a manifest piped on standard input: read into a private temporary file (removed at
  /// once), named `-`, its relative paths from the current folder; a list of photos on standard input is refused.
  static func validatePiped(_ decoder: ManifestDecoder, checking check: (JobEntry) -> [Diagnostic])
    -> (diagnostics: [Diagnostic], made: Int, photos: Int)
  {
    let piped: PipedManifest
    let records: AnyIterator<Result<JobEntry, ManifestError>>
    do {
      piped = try PipedManifest(spoolingIn: nil, limits: decoder.limits)
      records =
        piped.format == .jsonLines
        ? AnyIterator(piped.lines(decoder).lazy.map(\.result).makeIterator())
        : AnyIterator(try piped.jobs(decoder).lazy.map { .success($0) }.makeIterator())
    } catch {
      return (error.diagnostics, 0, 0)
    }
    var photos = 0
    let sources: PhotoSources = { job in
      if let refusal = PipedManifest.listRefusal(job) { return .failure(refusal) }
      return PhotoSet.photos(of: job)
    }
    let (diagnostics, made) = decoder.validate(records, file: PipedManifest.name, sources: sources) { job in
      if job.photo != nil { photos += 1 }
      return check(job)
    }
    return (diagnostics, made, photos)
  }
}

extension Command {
  static func validate(manifest: String, inputs: InputOptions = InputOptions()) -> Command {
    Command(ValidateCommand(manifest: manifest, inputs: inputs))
  }
}
