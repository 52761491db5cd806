import StampBatch
import StampCore
import StampFiles

/// Options of `stampcam render`.
struct RenderOptions: Equatable, Sendable {
  var manifest: String
  var out: String
  /// With `script`: the photos after the first (which `manifest` holds until the command sorts them out).
  var photos: [String] = []
  /// A manifest of one job to apply to the photos named as operands (`--script`), or nil.
  var script: String?
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
  /// Where to write the run's events as JSON Lines (start, each job's start and end, end): a file, `-`, or nil.
  var events: String?
  /// Photos and stamps with more pixels fail their job, checked from the header.
  var maxPixels = Limits().maxPixels
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

  /// The values before any option is read.
  static let defaults = RenderOptions(manifest: "", out: "")

  /// The options render shares with validate and explain, read and written in place.
  var inputs: InputOptions {
    get {
      InputOptions(maxPixels: maxPixels, inputRoot: inputRoot, allowUntrustedLoaders: allowUntrustedLoaders)
    }
    set {
      (maxPixels, inputRoot, allowUntrustedLoaders) = (
        newValue.maxPixels, newValue.inputRoot,
        newValue.allowUntrustedLoaders
      )
    }
  }
}
