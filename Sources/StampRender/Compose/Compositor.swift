import CVips
import CVipsGlue

/// Draws transformed stamps onto a picture, for both paths: the whole photo on the libvips path, one region of
/// whole blocks at a time on the JPEG path. Only the bands the stamps cover are composited, each in one n-ary
/// composite (see `BandPlan`).
struct Compositor: Sendable {
  /// Decoded stamps, shared by every job of the batch.
  let cache: StampCache
  /// Resample and composite only the part of each stamp that is not transparent (see `PreparedStamp.content`).
  /// Off only in tests, which check that it changes no pixel.
  var trimsTransparentMargins = true
  /// Layers composited at once, at most: libvips holds buffers for every input of a composite while it runs
  /// (some megabytes a layer: 1,000 stamps in one job took 1.9 GB). More are drawn in groups of this many, each
  /// group's result decoded to memory before the next is drawn over it.
  var layersPerComposite = 16
  /// The job drawn for: its stop switch watches every evaluation, its budget what its stamps may decode. Nil: a
  /// compositor of no job (tests, and callers drawing one stamp), which nothing stops or limits.
  var context: JobContext?

  /// Draws `stamps` (placed in upright image space) onto `base` (8-bit sRGB, with or without alpha), whose
  /// pixels are that space carried through `map`. Only the bands the stamps cover are composited, each in one
  /// n-ary composite; the result has the base's size, bands and format.
  func composite(_ stamps: [RenderPlan.Stamp], onto base: Image, map: PlaneMap) throws -> Image {
    var pending: [Layer?] = try self.layers(stamps, map: map, width: base.width, height: base.height)
    guard !pending.isEmpty else { return base }
    let plan = BandPlan(boxes: pending.compactMap { $0 }.map { ($0.left, $0.top, $0.right, $0.bottom) })
    // Each band's stamped middle is composited and put in the photo's place; every other pixel is read through.
    // (Joining the unstamped pieces around the middles instead took four to five times the operations, each join
    // working out its background pixel in a one-pixel pipeline of its own.)
    var drawn = base
    for band in plan.bands {
      let middle = try base.crop(band.left, band.top, band.right - band.left, band.bottom - band.top)
      // Each group of layers is let go once drawn: its images hold libvips' buffers, and the stamps it drew.
      let indices = band.layers
      let blended = try blend(count: indices.count, onto: middle, left: band.left, top: band.top) { range in
        defer { for k in range { pending[indices[k]] = nil } }
        return range.compactMap { pending[indices[$0]] }
      }
      drawn = try drawn.inserting(blended, left: band.left, top: band.top)
    }
    return drawn
  }

  /// `stamps` transformed for a base of `width` x `height` whose pixels are upright space carried through `map`,
  /// in drawing order, each with the box it can change; stamps that draw nothing there are left out.
  func layers(_ stamps: [RenderPlan.Stamp], map: PlaneMap, width: Int, height: Int) throws -> [Layer] {
    try stamps.compactMap { try transformed($0, map: map, width: width, height: height) }
  }

  /// `layers` composited over `piece`, a part of the base whose top-left is (left, top), in one n-ary composite
  /// or, past `layersPerComposite`, group after group; a 16-bit piece (RGB16) has the layers widened to 16 bits
  /// and stays 16-bit.
  func blend(_ layers: [Layer], onto piece: Image, left: Int, top: Int) throws -> Image {
    try blend(count: layers.count, onto: piece, left: left, top: top) { Array(layers[$0]) }
  }

  /// `blend` over `count` layers that `take` hands out a group at a time.
  private func blend(count: Int, onto piece: Image, left: Int, top: Int, take: (Range<Int>) -> [Layer]) throws
    -> Image
  {
    var drawn = piece
    for start in stride(from: 0, to: count, by: layersPerComposite) {
      let group = take(start..<min(start + layersPerComposite, count))
      let next = try blendAtOnce(group, onto: drawn, left: left, top: top)
      let last = start + layersPerComposite >= count
      drawn =
        last
        ? next
        : try next.evaluating(under: context?.control) { try next.derive("draw stamps") { scv_copy_memory($0, &$1) } }
    }
    return drawn
  }

  /// One n-ary composite of `layers` over `piece` (see `blend`).
  private func blendAtOnce(_ layers: [Layer], onto piece: Image, left: Int, top: Int) throws -> Image {
    let deep = piece.format == VIPS_FORMAT_USHORT
    let under = piece.hasAlpha ? try piece.derive("premultiply") { scv_premultiply($0, &$1) } : piece
    let images = try layers.map { try $0.makeImage() }
    let overs = deep ? try images.map { try $0.derive("widen") { scv_widen_to_rgb16($0, &$1) } } : images
    var pointers: [UnsafeMutablePointer<VipsImage>?] = [under.pointer] + overs.map(\.pointer)
    let xs = layers.map { Int32($0.left - left) }
    let ys = layers.map { Int32($0.top - top) }
    var out: UnsafeMutablePointer<VipsImage>?
    let status = pointers.withUnsafeMutableBufferPointer { buffer in
      Vips.call {
        scv_composite(buffer.baseAddress, Int32(buffer.count), Int32(VIPS_BLEND_MODE_OVER.rawValue), xs, ys, 1, &out)
      }
    }
    guard status == 0, let result = out else {
      throw RenderError.operation(path: piece.source, operation: "composite", message: Vips.takeError())
    }
    var composed = withExtendedLifetime((under, images, overs)) {
      Image(owning: result, source: piece.source, failOn: piece.failOn)
    }
    if piece.hasAlpha {
      composed = try composed.derive("unpremultiply") { scv_unpremultiply($0, &$1) }
    } else {
      // Compositing adds an alpha band; an opaque photo stays opaque.
      let colour = Int32(composed.bands - 1)
      composed = try composed.derive("extract colour") { scv_extract_bands($0, &$1, 0, colour) }
    }
    return try composed.derive("cast") { scv_cast($0, &$1, deep ? VIPS_FORMAT_USHORT : VIPS_FORMAT_UCHAR) }
  }
}
