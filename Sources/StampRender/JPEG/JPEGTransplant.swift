import Foundation
import StampCore
import StampFiles

/// The JPEG-to-JPEG path: stamps drawn into the base's DCT blocks, every other block written back as it was.
///
/// Any JPEG libjpeg reads as coefficients and turns into RGB takes it: baseline or progressive, Huffman or
/// arithmetic, grey, YCbCr or RGB, any sampling with whole ratios, with or without restart markers. The output keeps
/// the photo's coding (see `sjt_keep_coding`): a progressive photo is written progressive (libjpeg's simple
/// progression, as jpegtran does), its restart interval stays, and optimized Huffman tables are optimized again. A
/// grey photo stays grey: a stamp is drawn in its luminance.
///
/// The base's coefficients are read with libjpeg; the plan is carried into the stored frame (the EXIF orientation
/// tag is kept, not applied); each group of stamps gets a region of whole iMCUs (with one iMCU of margin when
/// chroma is subsampled, see `BlockMap.regionMargin`), decoded from its own blocks, composited by the same libvips
/// compositor as the general path, and encoded again with the base's quantization tables and sampling: straight
/// between coefficients and pixels with libjpeg's own transforms, colour conversion and sampling rules (no JPEG is
/// written or read for a region; see `sjt_set_direct`). Only blocks holding a pixel that changed take the new
/// coefficients. Nothing outside the stamps is decoded, so
/// nothing there loses a generation.
///
/// A base with restart markers (some cameras and phones write them) need not even have its coefficients read
/// whole: only the restart intervals under the stamps are read and encoded again (with the base's own Huffman
/// tables), and every other interval is copied byte for byte (see `RestartSpans`). A baseline base without them
/// (most photos) is spliced: its scan is read for where each MCU starts, each region's MCUs are cut out as a JPEG
/// of their own, edited and encoded again with the base's tables, and every other MCU is copied as bits into its
/// new place (see `sjt_splice_index`); the output's coefficients are the whole edit's, block for block. When
/// neither can be done (progressive, tables lacking a code the edit needs, damage, most of the photo under the
/// stamps), the whole coefficients are edited as above.
enum JPEGTransplant {
  /// What the JPEG path made of a job: the path chosen, the output staged when it is a transplant, and the base's
  /// header when libjpeg read it.
  struct Attempt {
    var path: RenderPath
    var staged: StagedFile? = nil
    var facts: JPEGFacts? = nil
  }

  /// Reads every coefficient of a JPEG base whose pixels libvips is about to decode, when the policy fails corrupt
  /// data: libjpeg notices some damage only past the last pixel row (the decoder lost step and stopped short of
  /// the data: "N extraneous bytes before marker"), which libvips never reads. Only that damage is reported here;
  /// a file libjpeg cannot read at all is libvips' to report.
  static func verify(_ file: InputFile, failOn: InputPolicy.FailOn, maxBytes: Int, in context: JobContext) throws {
    guard failOn >= .error, file.firstCheck() else { return }
    do {
      try context.codecs.withCodec(stoppedBy: context.control) { codec in
        guard try codec.open(file, maxBytes: maxBytes) != nil else { return }
        // Entropy decoding only: reading the coefficients into arrays cost as much as decoding the pixels.
        try codec.skim()
      }
    } catch {
      guard let error = RenderError(error) else { throw error }
      if case .damaged = error { throw error }
    }
  }

  /// Stages `plan` for `target` by transplanting when the job allows it (see `RenderPath.choose`). A libvips path
  /// stages nothing: the caller renders the pixels, which is also the answer after a libjpeg failure (`.damaged`,
  /// with libjpeg's message): the libvips path then reports what is wrong with the file in its own words. A photo
  /// libjpeg finds damaged fails here when the renderer's `--fail-on` policy says so; otherwise libvips decodes what
  /// it can, under the same policy. A photo file over the size limit, and a stopped job, are refused, not rendered
  /// another way.
  static func stage(
    _ plan: RenderPlan, file: InputFile, to target: OutputTarget, quality: Int?, with settings: JPEGSettings
  ) throws -> Attempt {
    // Decided before the base is read: the other cases cost nothing to rule out.
    guard target.format == .jpeg else { return Attempt(path: .libvips(.outputNotJPEG)) }
    guard quality == nil else { return Attempt(path: .libvips(.explicitQuality)) }
    var facts: JPEGFacts?
    do {
      let (path, staged) = try transplant(plan, file: file, to: target, with: settings, facts: &facts)
      return Attempt(path: path, staged: staged, facts: facts)
    } catch RenderError.operation(_, _, let message) {
      return Attempt(path: .libvips(.damaged(message)), facts: facts)
    } catch RenderError.damaged(let path, let message, let truncated) {
      let fails = truncated ? settings.inputs.failOn != .none : settings.inputs.failOn >= .error
      if fails { throw RenderError.damaged(path: path, message: message, truncated: truncated) }
      return Attempt(path: .libvips(.damaged(message)), facts: facts)
    } catch {
      switch RenderError(error) {
      case .fileTooLarge?, .stopped?, .input?, .unreadable?, .refused?: throw RenderError(error) ?? error
      default: return Attempt(path: .libvips(.damaged("\(error)")), facts: facts)
      }
    }
  }

  /// Reads the base's header, chooses the path and, when it is a transplant, stages the output for `target`:
  /// the path chosen and, for a transplant, the output staged; the base's header is handed back in `header` as
  /// soon as it is read. Errors name the file they concern.
  static func transplant(
    _ plan: RenderPlan, file: InputFile, to target: OutputTarget, with settings: JPEGSettings,
    facts header: inout JPEGFacts?
  ) throws -> (path: RenderPath, staged: StagedFile?) {
    try settings.context.codecs.withCodec(stoppedBy: settings.context.control) { codec in
      codec.codesRegionsDirectly(settings.codesRegionsDirectly)
      codec.readsThroughWindow(of: settings.spliceWindow)
      let facts = try codec.open(file, maxBytes: settings.maxFileBytes)
      header = facts
      let path = RenderPath.choose(output: .jpeg, quality: nil, base: facts, maxPixels: settings.maxPixels)
      guard path == .transplant, let facts else { return (path, nil) }
      // libvips reads the EXIF orientation exactly as the general path does.
      let orientation = try Image.open(file, sequential: true, policy: settings.inputs).orientation
      let blocks = BlockMap(width: facts.width, height: facts.height, sampling: facts.sampling)
      let stored = PlaneMap.uprightToStored(orientation: orientation, width: facts.width, height: facts.height)
      // Each layer's box holds every pixel it can change (its content's outline, widened by the resamplers' reach).
      let layers = try settings.compositor.layers(plan.stamps, map: stored, width: facts.width, height: facts.height)
      let regions = blocks.regions(touching: layers.map(\.box), margin: blocks.regionMargin)
      let edit = Edit(blocks: blocks, layers: layers, codec: codec, settings: settings)
      if settings.copiesRestartIntervals, facts.restartInterval > 0,
        let staged = try edit.byIntervals(regions, height: facts.height, orientation: orientation, to: target)
      {
        return (.restartIntervals, staged)
      }
      if settings.splicesScans, facts.restartInterval == 0, !facts.progressive,
        let staged = try edit.bySplice(regions, orientation: orientation, to: target)
      {
        return (.spliced, staged)
      }
      try codec.readCoefficients()
      for region in regions { try edit.redraw(region, origin: (0, 0)) }
      let staged = try AtomicFile.stage(target, registry: settings.context.temporaries) {
        try codec.write(to: $0.rawValue, named: target.display, orientation: orientation)
      }
      return (.transplant, staged)
    }
  }

  /// One job's edit of the blocks under its layers (placed in the stored frame).
  private struct Edit {
    let blocks: BlockMap
    let layers: [Layer]
    let codec: JPEGCodec
    let settings: JPEGSettings

    /// The edit for a file with restart markers: only the intervals holding `regions` are read and encoded
    /// again, every other one is copied byte for byte. False when that cannot be done (no usable restart
    /// markers, spans that would cover every row, Huffman tables lacking codes), decided before anything is read
    /// or written, so the whole-coefficient edit can follow on the file as it was opened. Returns the output staged.
    func byIntervals(_ regions: [GridRect], height: Int, orientation: Int, to target: OutputTarget) throws
      -> StagedFile?
    {
      // With nothing to draw, the first rows still go through libjpeg: their JPEG gives the output its header (the
      // photo's tables, its ICC profile, the orientation, no other metadata); every other interval is copied.
      let rows = regions.isEmpty ? [0..<1] : regions.map { $0.top..<$0.bottom }
      guard let interval = try codec.indexRestarts(),
        let plan = RestartSpans(rows: rows, mcusWide: blocks.mcusWide, mcusHigh: blocks.mcusHigh, interval: interval)
      else { return nil }
      // The intervals copied are never decoded for the edit: at `--fail-on error` and above libjpeg reads them all
      // (their symbols dropped) first, so damage there fails the job as the pixel path's decode would.
      if settings.inputs.failOn >= .error { try codec.checkRestarts() }
      for span in plan.spans {
        let top = span.rows.lowerBound * blocks.mcuHeight
        let bottom = min(span.rows.upperBound * blocks.mcuHeight, height)
        try codec.openSpan(first: span.firstInterval, count: span.intervals, height: bottom - top)
        for region in regions where span.rows.contains(region.top) {
          try redraw(region, origin: (0, top))
        }
        try codec.encodeSpan(orientation: orientation)
      }
      return try AtomicFile.stage(target, registry: settings.context.temporaries) {
        try codec.writeSpliced(to: $0.rawValue, named: target.display)
      }
    }

    /// The edit for a baseline file without restart markers: each region's MCUs are cut out of the photo's scan,
    /// read, edited and encoded again, and every other MCU is copied as bits (see `sjt_splice_index`). Nil when
    /// that cannot be done (not a file the splice takes, its data found damaged, tables fitted to the photo that lack
    /// a code the edit needs, a seam its table cannot code),
    /// with nothing written, so the whole-coefficient edit can follow on the file as it was opened (and report any
    /// damage in libjpeg's words). Returns the output staged.
    func bySplice(_ regions: [GridRect], orientation: Int, to target: OutputTarget) throws -> StagedFile? {
      // With nothing to draw, one MCU still goes through libjpeg: its JPEG gives the output its header.
      let rects = regions.isEmpty ? [GridRect(left: 0, top: 0, width: 1, height: 1)] : regions
      // The scan costs about a third of decoding and encoding every coefficient: past two thirds of the photo under
      // the stamps, the whole-photo edit is the cheaper one.
      let covered = rects.reduce(0) { $0 + $1.width * $1.height }
      guard covered * 3 <= blocks.mcusWide * blocks.mcusHigh * 2 else { return nil }
      guard try codec.indexSplice(rects) == .ready else { return nil }
      for (k, rect) in rects.enumerated() {
        guard try codec.openSplice(k) else { return nil }
        let pixels = blocks.pixels(of: rect)
        if !regions.isEmpty { try redraw(rect, origin: (pixels.left, pixels.top)) }
        guard try codec.encodeSplice() else { return nil }
      }
      struct Unspliceable: Error {}
      do {
        return try AtomicFile.stage(target, registry: settings.context.temporaries) { file in
          guard try codec.writeSplice(to: file.rawValue, named: target.display, orientation: orientation) else {
            throw Unspliceable()
          }
        }
      } catch is Unspliceable {
        return nil
      }
    }

    /// Composites the layers over one region (iMCUs in the photo; regions hold every layer they touch whole) and
    /// puts the blocks that changed back into the coefficients being edited, whose top-left pixel is the photo's
    /// `origin`; a tall region strip by strip (see `Renderer.stripHeight`).
    func redraw(_ region: GridRect, origin: (left: Int, top: Int)) throws {
      let rows = settings.stripHeight / blocks.mcuHeight
      let strips = blocks.strips(of: region, rows: rows, margin: blocks.regionMargin).map { strip in
        let rect = blocks.pixels(of: strip.decode)
        let local = GridRect(
          left: rect.left - origin.left, top: rect.top - origin.top, width: rect.width, height: rect.height)
        let top = strip.rows.lowerBound * blocks.mcuHeight
        let bottom = min(strip.rows.upperBound * blocks.mcuHeight, blocks.height)
        return (rect: rect, local: local, rows: (top - rect.top)..<(bottom - rect.top))
      }
      // Each strip is decoded before the one above it gets its new blocks: a strip's context rows (chroma
      // upsampling reads them) must hold the photo's pixels, as they do when the region is drawn at once. The two
      // decoded strips take turns in the codec's buffers.
      func decode(_ k: Int) throws -> UnsafeMutableRawBufferPointer {
        let local = strips[k].local
        let pixels = codec.decoded[k % 2].bytes(local.width * local.height * 3)
        try codec.decode(local, into: pixels)
        return pixels
      }
      var next = try strips.isEmpty ? nil : decode(0)
      for (k, strip) in strips.enumerated() {
        guard let before = next else { break }
        next = k + 1 < strips.count ? try decode(k + 1) : nil
        try redraw(strip.rect, before: UnsafeRawBufferPointer(before), rows: strip.rows, local: strip.local)
      }
    }

    /// Composites the layers over the pixels `rect` (in the photo, on the iMCU grid), decoded as `before`, and puts
    /// the blocks of its pixel rows `rows` (relative to `rect`) that changed back into the coefficients being edited,
    /// where the same pixels are `local`.
    func redraw(_ rect: GridRect, before: UnsafeRawBufferPointer, rows: Range<Int>, local: GridRect) throws {
      let after = codec.drawn.bytes(rect.width * rect.height * 3)
      // `base` reads `before` (the codec's buffer) in place; it and every image made from it are gone when this
      // block ends, before the buffer is written again.
      do {
        let base = try Image.over(before, width: rect.width, height: rect.height, bands: 3)
        let drawn = layers.filter { $0.box.intersects(rect) }
        try settings.compositor.blend(drawn, onto: base, left: rect.left, top: rect.top).write(
          into: after, under: settings.context.control)
      }
      let masks = blocks.changedBlocks(
        width: rect.width, height: rect.height, before: before, after: UnsafeRawBufferPointer(after), bands: 3,
        rows: rows)
      guard masks.contains(where: { $0.contains(1) }) else { return }
      try codec.replace(local, rgb: UnsafeRawBufferPointer(after), masks: masks)
    }
  }
}
