import CVips
import CVipsGlue
import Foundation
import StampCore
import StampFiles
import StampSystem

/// Draws render plans onto full-resolution photos and writes the results.
package struct Renderer: Sendable {
  /// Draws the stamps, on both paths.
  var compositor: Compositor
  /// Decoded stamps, shared by every job of the batch.
  package var cache: StampCache { compositor.cache }
  /// Photos with more pixels are refused from their header, before any decoding.
  package var maxPixels: Int
  /// Photo files larger than this (bytes) are refused before they are read (the JPEG path reads a photo's file
  /// into memory, but for the splice of a large one): `defaultMaxFileBytes`, or 5 bytes a pixel of `maxPixels` when
  /// that is more.
  package var maxFileBytes: Int
  /// 512 MiB: more than any JPEG of 100 megapixels needs (over 5 bytes a pixel; a camera's take about 0.5).
  package static let defaultMaxFileBytes = 512 << 20
  /// For a JPEG with restart markers, copy the intervals no stamp touches instead of decoding and encoding their
  /// coefficients (see `JPEGTransplant`). Off only in tests, which compare the two.
  var copiesRestartIntervals = true
  /// For a baseline JPEG without restart markers, copy the MCUs no stamp touches as bits instead of decoding and
  /// encoding every coefficient (see `JPEGTransplant`). Off only in tests and benches, which compare the two.
  var splicesScans = true
  /// The splice reads a photo file larger than this many bytes through a window of this size, never holding the
  /// whole file (see `sjt_set_window`); 0: every photo is read whole. Changed only in tests, which compare the two.
  var spliceWindow = JPEGCodec.defaultWindow
  /// Decode and encode the JPEG path's regions straight between coefficients and pixels with libjpeg's own
  /// transforms, instead of writing each as a small JPEG and reading it back (the same pixels and coefficients;
  /// see `sjt_set_direct`). Off only in tests, which compare the two.
  var codesRegionsDirectly = true
  /// The JPEG path decodes, composites and encodes a tall region in strips of about this many pixel rows (whole
  /// iMCU rows, at least one), so the memory a stamp needs is bounded by its width: a stamp across a whole
  /// 12-megapixel photo would otherwise hold several copies of all of it at once. Tests change it to compare.
  var stripHeight = 512
  /// Which loaders inputs may use, how damaged they may be, and where they may lie.
  package var inputs = InputPolicy()
  /// The job rendered for (`forJob`): what stops it, what its stamps may decode, the codecs it borrows and where its
  /// temporary files are registered. A renderer of no job has its own, which nothing stops or limits.
  package private(set) var context = JobContext()

  /// Creates a renderer over a stamp cache.
  package init(cache: StampCache = StampCache(), maxPixels: Int = Limits().maxPixels) {
    compositor = Compositor(cache: cache)
    self.maxPixels = maxPixels
    let (bytes, overflow) = maxPixels.multipliedReportingOverflow(by: 5)
    maxFileBytes = overflow ? Int.max : max(Self.defaultMaxFileBytes, bytes)
  }

  /// Renders `plan` for `target`, in the format its extension names, and returns the output staged for the caller
  /// to commit with the job's others, and the path it took. `quality` applies to the lossy formats; nil means not
  /// asked: 90, or for a JPEG base written as JPEG, the base's own quantization and coding with every block the
  /// stamps leave alone kept exactly (see `JPEGTransplant`). A JPEG that falls back to pixels
  /// (`RenderPath.fallback`) keeps its chroma subsampling (4:2:0 for any subsampled photo: libvips writes no other)
  /// and its progressive coding.
  package func stage(_ plan: RenderPlan, to target: OutputTarget, quality: Int? = nil) throws
    -> (file: StagedFile, path: RenderPath)
  {
    guard let format = target.format else { throw RenderError.unsupportedFormat(path: target.display) }
    let base = try file(of: plan)
    try checkFileSize(base)
    let attempt = try JPEGTransplant.stage(plan, file: base, to: target, quality: quality, with: jpegSettings)
    if let staged = attempt.staged { return (staged, attempt.path) }
    // Idle codecs' coefficient arrays go before the photo is decoded, or one is lent to a progressive photo.
    let lender = ArraysLender(pool: context.codecs)
    defer { lender.finish() }
    let composed = try compose(plan, sixteenBits: format == .png || format == .tiff, lender: lender)
    let style = attempt.path.fallback == nil ? nil : attempt.facts.map(ImageWriter.JPEGStyle.init)
    let file = try composed.writing {
      try ImageWriter.stage($0, to: target, format: format, quality: quality ?? 90, style: style, in: context)
    }
    return (file, attempt.path)
  }

  /// This renderer for the job of `context`: stopped by its control, its stamps decoding no more than its budget
  /// (see `StampBudget`), borrowing its codecs, its temporary files registered in its registry.
  package func forJob(_ context: JobContext) -> Renderer {
    var renderer = self
    renderer.context = context
    renderer.compositor.context = context
    return renderer
  }

  /// Gives the libvips pipelines of jobs starting from now on their share of the cores among `jobs` jobs in flight:
  /// libvips' own default is a thread per core for every pipeline, so --jobs 64 on 64 cores would start 64 x 64
  /// threads. Returns the threads each pipeline gets.
  @discardableResult
  package static func shareCores(among jobs: Int) throws -> Int {
    try Vips.shareCores(among: jobs)
  }

  /// What the JPEG path needs of this renderer.
  var jpegSettings: JPEGSettings {
    JPEGSettings(
      context: context, compositor: compositor, inputs: inputs, maxPixels: maxPixels, maxFileBytes: maxFileBytes,
      copiesRestartIntervals: copiesRestartIntervals, splicesScans: splicesScans, spliceWindow: spliceWindow,
      codesRegionsDirectly: codesRegionsDirectly, stripHeight: stripHeight)
  }

  /// Refuses a photo file over `maxFileBytes`, from the size of the file held open, before any of it is read.
  func checkFileSize(_ file: InputFile) throws {
    guard let status = try? file.descriptor.status() else { return }
    if status.size > Int64(maxFileBytes) {
      throw RenderError.fileTooLarge(path: file.path, limit: maxFileBytes)
    }
  }

  /// The composited picture, upright, 8-bit sRGB (plus alpha if the base had it), metadata stripped but ICC.
  /// With `sixteenBits` (for outputs that hold them: PNG, TIFF), a 16-bit photo stays 16-bit RGB, stamps
  /// composited at that depth. `streams` reads an upright stamped photo once, top to bottom (for callers that
  /// consume it in order); off, a stamped photo is decoded whole first, for callers that read it in any order (an
  /// affine). `lender` is told the photo's reader before anything is decoded (see `ArraysLender`). Write the
  /// picture through `Composition.writing`, which tells the JPEG reader's failures.
  func compose(
    _ plan: RenderPlan, sixteenBits: Bool = false, streams: Bool = true, lender: ArraysLender? = nil
  ) throws -> Composition {
    var decoder = BaseDecoder(inputs: inputs, maxPixels: maxPixels, maxFileBytes: maxFileBytes, context: context)
    decoder.lender = lender
    let decoded = try decoder.decode(
      try file(of: plan), path: plan.base, stamped: !plan.stamps.isEmpty,
      inOrder: streams && plan.stamps.count <= compositor.layersPerComposite, sixteenBits: sixteenBits)
    var composed = try compositor.composite(plan.stamps, onto: decoded.base, map: .identity)
    composed = try composed.derive("strip metadata") {
      scv_strip_metadata($0, &$1, decoded.keepsProfile ? 1 : 0, 0)
    }
    if decoded.sequential { composed = try composed.derive("stream") { scv_mark_sequential($0, &$1, 1) } }
    return Composition(image: composed, reader: decoded.reader)
  }

  /// The plan's base, as opened for the job, or opened now.
  func file(of plan: RenderPlan) throws -> InputFile {
    try plan.baseFile ?? InputFile.open(plan.base, root: inputs.root)
  }
}
