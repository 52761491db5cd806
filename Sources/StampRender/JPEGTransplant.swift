import Foundation
import StampCore

/// The JPEG-to-JPEG path: stamps drawn into the base's DCT blocks, every other block written back as it was.
///
/// The base's coefficients are read with libjpeg; the plan is carried into the stored frame (the EXIF orientation
/// tag is kept, not applied); each group of stamps gets a region of whole iMCUs with one iMCU of margin, decoded
/// from its own blocks, composited by the same libvips compositor as the general path, and encoded again with the
/// base's quantization tables and sampling. Only blocks holding a pixel that changed take the new coefficients.
/// Nothing outside the stamps is decoded, so nothing there loses a generation.
enum JPEGTransplant {
  /// Writes `plan` to `output` by transplanting when the job allows it (see `RenderPath.choose`); false when the
  /// caller must take the libvips path instead, which is also the answer after any failure: the libvips path then
  /// reports what is wrong with the file in its own words.
  static func render(
    _ plan: RenderPlan, to output: String, format: OutputFormat, quality: Int?, with renderer: Renderer
  ) -> Bool {
    // Decided before the base is read: the other cases cost nothing to rule out.
    guard format == .jpeg, quality == nil else { return false }
    return (try? transplant(plan, to: output, with: renderer)) == .transplant
  }

  /// Reads the base's header, chooses the path and, when it is the transplant, writes `output` atomically. Returns
  /// the path chosen (nothing is written for a libvips one); errors name the file they concern.
  static func transplant(_ plan: RenderPlan, to output: String, with renderer: Renderer) throws -> RenderPath {
    try JPEGCodecPool.shared.withCodec { codec in
      let facts = try codec.open(plan.base)
      let path = RenderPath.choose(output: .jpeg, quality: nil, base: facts, maxPixels: renderer.maxPixels)
      guard path == .transplant, let facts else { return path }
      // libvips reads the EXIF orientation exactly as the general path does.
      let orientation = try Image.open(plan.base, sequential: true).orientation
      try codec.readCoefficients()
      let blocks = BlockMap(width: facts.width, height: facts.height, sampling: facts.sampling)
      let stored = PlaneMap.uprightToStored(orientation: orientation, width: facts.width, height: facts.height)
      // Each layer's box holds every pixel it can change (its content's outline, widened by the resamplers' reach).
      let layers = try renderer.layers(plan.stamps, map: stored, width: facts.width, height: facts.height)
      let boxes = layers.map(\.box)
      for region in blocks.regions(touching: boxes, margin: blocks.regionMargin) {
        let rect = blocks.pixels(of: region)
        try redraw(rect, of: blocks, layers: layers.filter { $0.box.intersects(rect) }, codec: codec, renderer)
      }
      try AtomicFile.write(to: output) { try codec.write(to: $0, orientation: orientation) }
      return .transplant
    }
  }

  /// Composites the layers (placed in the stored frame; regions hold every layer they touch whole) over one
  /// region's pixels and puts the blocks that changed back into the base.
  private static func redraw(
    _ rect: GridRect, of blocks: BlockMap, layers: [Layer], codec: JPEGCodec, _ renderer: Renderer
  ) throws {
    let before = try codec.decode(rect)
    let base = try Image.fromPixels(before, width: rect.width, height: rect.height, bands: 3)
    let after = try renderer.blend(layers, onto: base, left: rect.left, top: rect.top).pixels()
    let masks = blocks.changedBlocks(width: rect.width, height: rect.height, before: before, after: after, bands: 3)
    guard masks.contains(where: { $0.contains(1) }) else { return }
    try codec.replace(rect, rgb: after, masks: masks)
  }
}
