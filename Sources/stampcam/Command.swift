import StampFiles
import StampBatch

/// What the user asked for, parsed from the command line.
enum Command: Equatable, Sendable {
  /// `render MANIFEST --out DIR ...`
  case render(RenderOptions)
  /// `validate MANIFEST [--max-pixels N] [--input-root DIR] [--allow-untrusted-loaders]`
  case validate(manifest: String, inputs: InputOptions = InputOptions())
  /// `explain MANIFEST [--job ID] [--max-pixels N] [--input-root DIR] [--allow-untrusted-loaders]`
  case explain(manifest: String, job: String?, inputs: InputOptions = InputOptions())
  /// `schema`
  case schema
  /// `import getevent|cdp LOG ...`
  case importLog(ImportOptions)
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
  /// Also write every job's overlay picture.
  var overlay = false
  /// Render only shard I of N (`I/N`, 0-based).
  var shard: String?
  /// Skip jobs whose outputs were made from the same job, inputs and version.
  var resume = false
  /// Where to write one JSON line per job: a file, `-` for stdout, or nil.
  var report: String?
  /// Photos and stamps with more pixels fail their job, checked from the header.
  var maxPixels = 100_000_000
  /// The folder every photo and stamp must lie in (by real path); nil for anywhere.
  var inputRoot: String?
  /// How damaged a photo or stamp may be before its job fails.
  var failOn = InputPolicy.FailOn.error
  /// Let libvips use its untrusted loaders (ImageMagick, PDF, SVG...).
  var allowUntrustedLoaders = false
  /// Seconds a job may take before it is cancelled; 0 for no limit.
  var jobTimeout = 300.0
  /// Megabytes of decoded stamps kept between jobs.
  var stampCacheMB = 128
}

/// What `validate` and `explain` accept as `render` would with the same options: the pixel limit, the input root, the loaders.
struct InputOptions: Equatable, Sendable {
  /// Photos and stamps with more pixels are refused, checked from the header.
  var maxPixels = 100_000_000
  /// The folder every photo and stamp must lie in (by real path); nil for anywhere.
  var inputRoot: String?
  /// Let libvips use its untrusted loaders (ImageMagick, PDF, SVG...).
  var allowUntrustedLoaders = false
}

/// Options of `stampcam import`.
struct ImportOptions: Equatable, Sendable {
  enum Format: String, Equatable, Sendable { case getevent, cdp }
  var format: Format
  var log: String
  /// The screen in points (getevent only).
  var screen: (width: Double, height: Double)?
  /// The device to read when the log holds several (getevent only).
  var device: String?
  /// Axis maxima when the log has no `getevent -p` header (getevent only).
  var axisMax: (x: Int, y: Int)?
  /// Seconds between frames for a log without timestamps (getevent only).
  var frameInterval: Double? = nil
  /// Where to write the touches item; nil means stdout.
  var out: String?

  static func == (a: ImportOptions, b: ImportOptions) -> Bool {
    a.format == b.format && a.log == b.log && a.screen?.width == b.screen?.width
      && a.screen?.height == b.screen?.height && a.device == b.device && a.axisMax?.x == b.axisMax?.x
      && a.axisMax?.y == b.axisMax?.y && a.frameInterval == b.frameInterval && a.out == b.out
  }
}

/// A mistake on the command line; printed as `stampcam: error: <message>` with exit status 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
  var message: String
  var description: String { message }
}
