import StampBatch
import StampCore
import StampFiles

/// How render, validate and explain read photos and stamps: the pixel limit, the input root, the loaders. The three
/// options are declared here once; validate and explain take them as they are, render among its own.
struct InputOptions: Equatable, Sendable {
  /// Photos and stamps with more pixels are refused, checked from the header.
  var maxPixels = Limits().maxPixels
  /// The folder every photo and stamp must lie in (by real path); nil for anywhere.
  var inputRoot: String?
  /// Let libvips use its untrusted loaders (ImageMagick, PDF, SVG...).
  var allowUntrustedLoaders = false

  static let maxPixels = Option<InputOptions>.value(
    "--max-pixels", "N",
    "photos or stamps with more pixels fail their job, checked from the header before decoding; also the most "
      + "pixels a job's stamps may decode to in all, each at the size it is drawn",
    default: "\(InputOptions().maxPixels)"
  ) { (options, text) throws(UsageError) in
    options.maxPixels = try OptionValue.integer(text, option: "--max-pixels", range: 1...Int(Int32.max) * 16)
  }

  static let inputRoot = Option<InputOptions>.value(
    "--input-root", "DIR",
    "every photo and stamp must lie inside DIR by its real path (symlinks and '..' resolved); a manifest naming one "
      + "outside is refused whole, before anything is written; a photo a glob finds that is a symbolic link is "
      + "opened only when DIR holds its target", default: "anywhere"
  ) { (options, text) throws(UsageError) in
    guard !text.isEmpty else { throw UsageError(message: "--input-root needs a folder") }
    options.inputRoot = text
  }

  static let allowUntrustedLoaders = Option<InputOptions>.flag(
    "--allow-untrusted-loaders",
    "let libvips read every format it knows (ImageMagick, PDF, SVG, FITS, raw...), not only JPEG, PNG, WebP, "
      + "TIFF, GIF and HEIF: only for input you trust"
  ) { $0.allowUntrustedLoaders = true }

  /// The three, for a command that keeps them in an `InputOptions` at `path`.
  static func options<V>(at path: WritableKeyPath<V, InputOptions> & Sendable) -> [Option<V>] {
    [maxPixels.lifted(path), inputRoot.lifted(path), allowUntrustedLoaders.lifted(path)]
  }

  /// The input policy render, validate and explain read photos and stamps with, in effect for libvips: the input
  /// root resolved (exit status 2 when it is not a folder), the untrusted loaders allowed or not.
  static func policy(root: String?, untrustedLoaders: Bool, failOn: InputPolicy.FailOn = .error)
    throws(CLI.Failure) -> InputPolicy
  {
    var inputs = InputPolicy(failOn: failOn, untrustedLoaders: untrustedLoaders)
    if let root {
      guard let resolved = try? InputPolicy.root(root) else {
        throw CLI.Failure(message: "--input-root \(root): not a folder that exists", status: ExitStatus.usage)
      }
      inputs.root = resolved
    }
    do {
      try inputs.activate()
    } catch {
      throw CLI.Failure(message: "\(error)", status: ExitStatus.usage)
    }
    return inputs
  }
}
