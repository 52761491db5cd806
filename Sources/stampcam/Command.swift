/// What the user asked for, parsed from the command line.
enum Command: Equatable, Sendable {
  /// `render MANIFEST --out DIR ...`
  case render(RenderOptions)
  /// `validate MANIFEST`
  case validate(manifest: String)
  /// `explain MANIFEST [--job ID]`
  case explain(manifest: String, job: String?)
  /// `schema`
  case schema
  /// `--help`, `help [COMMAND]` or `COMMAND --help`; the topic is a command name or nil for the overview.
  case help(topic: String?)
  /// `--version`
  case version
}

/// Options of `stampcam render`.
struct RenderOptions: Equatable, Sendable {
  var manifest: String
  var out: String
  /// Jobs in flight at once; nil means the number of cores.
  var jobs: Int?
  /// Silences the progress line and the summary.
  var quiet = false
  /// Photos and stamps with more pixels fail their job, checked from the header.
  var maxPixels = 100_000_000
}

/// A mistake on the command line; printed as `stampcam: error: <message>` with exit status 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
  var message: String
  var description: String { message }
}
