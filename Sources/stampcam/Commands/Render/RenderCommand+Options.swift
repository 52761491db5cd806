import StampBatch
import StampFiles

extension RenderCommand {
  static let name = "render"
  static let forms = [
    Form(
      operand: "MANIFEST", operandRepeats: true, options: options, start: RenderOptions.defaults,
      setOperand: { options, operand in
        if options.manifest.isEmpty { options.manifest = operand } else { options.photos.append(operand) }
      },
      operandsProblem: { options in
        if options.events == "-", options.report == "-" {
          return "--events - and --report - would both write to standard output: send one of them to a file"
        }
        if options.script != nil, options.manifest.isEmpty {
          return "render --script JOB needs the photos to apply it to (render --script JOB PHOTO... --out DIR)"
        }
        guard options.script == nil, let extra = options.photos.first else { return nil }
        return "render takes one manifest; unexpected '\(extra)' (to apply one job to photos: render --script JOB "
          + "PHOTO... --out DIR)"
      })
  ]

  /// The heading of the options that say how photos and stamps are read.
  static let inputsHeading = "INPUTS (see \"Running on untrusted manifests\" in the README)"

  static let options: [Option<RenderOptions>] =
    [
      .value(
        "--out", "DIR", "folder for the outputs (created if missing); job outputs are paths under it",
        required: "the folder the outputs go to"
      ) { $0.out = $1 },
      .value(
        "--script", "JOB",
        "apply the one job of the manifest JOB (its stamps, gestures, view and settings, as `record` saved them) to "
          + "each PHOTO named in place of MANIFEST, writing {dir}/{stem}.jpg under --out (the job's own output when "
          + "it is a template)"
      ) { $0.script = $1 },
      .value("--jobs", "N", "jobs in flight at once", default: "the number of cores") {
        (options, text) throws(UsageError) in
        options.jobs = try OptionValue.integer(text, option: "--jobs", range: 1...1024)
      },
      .value(
        "--shard", "I/N",
        "render only the jobs whose place (from 0; each photo of a job over many photos counted) is I modulo N; the N shards together render every job once, "
          + "with byte-identical results (for Kubernetes Indexed Jobs, Slurm arrays, GNU parallel)"
      ) { (options, text) throws(UsageError) in
        guard Shard(text) != nil else {
          throw UsageError(message: "--shard needs I/N with 0 <= I < N (e.g. 0/4 ... 3/4), not '\(text)'")
        }
        options.shard = text
      },
      .flag(
        "--resume",
        "skip jobs whose outputs were made from the same job, input files (inode, size, modification and change "
          + "times), input policy and stampcam version, as recorded in DIR/.stampcam/; render the others again"
      ) { $0.resume = true },
      .value(
        "--report", "FILE|-",
        "write one JSON line per job (id, status ok/failed/skipped, outputs, error, seconds, path "
          + "lossless/restart-intervals/spliced/pixels, fallback: why a JPEG was re-encoded from pixels: colour-space, "
          + "precision, sampling, quantization, or \"damaged: \" and libjpeg's message; with --resume, why it was "
          + "skipped or rendered: \"resume\": \"skipped: up to date\", \"redone: job changed\", \"redone: input "
          + "changed\", ...); it lists exactly the outputs on disk. If it cannot be written (a full disk), the job's "
          + "outputs are removed, no later job starts and the exit status is 1 (3 for `-`, standard output)"
      ) { $0.report = $1 },
      .value(
        "--events", "FILE|-",
        "write the run's progress for a program to read, one JSON object a line, each with \"event\" first and "
          + "\"elapsed\" (seconds since the start) last: \"start\" once (jobs: this shard's, each photo of a job over "
          + "many photos counted; resumed: those --resume will skip; todo; shard: \"I/N\" or null), \"job-start\" "
          + "(id, place: the job's place from 0, as --shard counts), \"job-end\" (the --report line's fields), and "
          + "\"end\" last (jobs, ok, failed, skipped, seconds, interrupted, status: the exit status 0, 1 or 128+N), "
          + "--quiet or not. "
          + "A terminal keeps its progress line. Not - together with --report -"
      ) { $0.events = $1 },
      .flag(
        "--quiet", alias: "-q",
        "no progress, no summary and no fallback count on stderr (--events still ends with its tally)"
      ) { $0.quiet = true },
      .flag(
        "--overlay",
        "also write <output>.overlay.<ext> for every job: the finger paths (a colour per finger, a dot where it "
          + "came down, a ring where it lifted), the points where gestures were recognized with their kind, and "
          + "each stamp's final outline (a job can ask for it alone with \"overlay\": true)"
      ) { $0.overlay = true },
      InputOptions.maxPixels.lifted(\RenderOptions.inputs).listed(under: inputsHeading),
      InputOptions.inputRoot.lifted(\RenderOptions.inputs).listed(under: inputsHeading),
      Option<RenderOptions>.value(
        "--fail-on", "LEVEL",
        "when a damaged photo or stamp fails its job: none (render what decodes), truncated (files cut short), "
          + "error (also corrupt data, such as JPEG entropy errors, in restart intervals copied unchanged too) or "
          + "warning (any decoder warning)",
        default: "error"
      ) { (options, text) throws(UsageError) in
        guard let level = InputPolicy.FailOn(rawValue: text) else {
          throw UsageError(message: "--fail-on needs none, truncated, error or warning, not '\(text)'")
        }
        options.failOn = level
      }.listed(under: inputsHeading),
      Option<RenderOptions>.value(
        "--job-timeout", "SECONDS",
        "cancel a job still running after this many seconds (0: no limit); it fails alone and leaves no file. "
          + "Also the longest a job waits for an output another run is writing (300 s with 0)",
        default: "\(Int(RenderOptions.defaults.jobTimeout))"
      ) { (options, text) throws(UsageError) in
        guard let seconds = Double(text), seconds.isFinite, (0...86_400).contains(seconds) else {
          throw UsageError(message: "--job-timeout needs seconds from 0 (no limit) to 86400, not '\(text)'")
        }
        options.jobTimeout = seconds
      }.listed(under: inputsHeading),
      Option<RenderOptions>.value(
        "--stamp-cache-mb", "N", "keep up to N MB of decoded stamps between jobs, least recently used dropped first",
        default: "\(RenderOptions.defaults.stampCacheMB)"
      ) { (options, text) throws(UsageError) in
        options.stampCacheMB = try OptionValue.integer(text, option: "--stamp-cache-mb", range: 1...65_536)
      }.listed(under: inputsHeading),
      InputOptions.allowUntrustedLoaders.lifted(\RenderOptions.inputs).listed(under: inputsHeading),
    ]
}

extension Command {
  static func render(_ options: RenderOptions) -> Command { Command(RenderCommand(options)) }
}
