import CVips
import CVipsGlue
import Foundation
import StampCore

/// Draws render plans onto full-resolution photos and writes the results.
public struct Renderer: Sendable {
  /// Decoded stamps, shared by every job of the batch.
  public let cache: StampCache
  /// Photos with more pixels are refused from their header, before any decoding.
  public var maxPixels: Int
  /// Photo files larger than this (bytes) are refused before they are read (the JPEG path reads a photo's file
  /// into memory): `defaultMaxFileBytes`, or 5 bytes a pixel of `maxPixels` when that is more.
  public var maxFileBytes: Int
  /// 512 MiB: more than any JPEG of 100 megapixels needs (over 5 bytes a pixel; a camera's take about 0.5).
  public static let defaultMaxFileBytes = 512 << 20
  /// Resample and composite only the part of each stamp that is not transparent (see `PreparedStamp.content`).
  /// Off only in tests, which check that it changes no pixel.
  var trimsTransparentMargins = true
  /// For a JPEG with restart markers, copy the intervals no stamp touches instead of decoding and encoding their
  /// coefficients (see `JPEGTransplant`). Off only in tests, which compare the two.
  var copiesRestartIntervals = true
  /// The JPEG path decodes, composites and encodes a tall region in strips of about this many pixel rows (whole
  /// iMCU rows, at least one), so the memory a stamp needs is bounded by its width: a stamp across a whole
  /// 12-megapixel photo would otherwise hold several copies of all of it at once. Tests change it to compare.
  var stripHeight = 512
  /// Which loaders inputs may use, how damaged they may be, and where they may lie.
  public var inputs = InputPolicy()

  /// Creates a renderer over a stamp cache.
  public init(cache: StampCache = StampCache(), maxPixels: Int = 100_000_000) {
    self.cache = cache
    self.maxPixels = maxPixels
    let (bytes, overflow) = maxPixels.multipliedReportingOverflow(by: 5)
    maxFileBytes = overflow ? Int.max : max(Self.defaultMaxFileBytes, bytes)
  }

  /// Renders `plan` and writes it atomically to `output`, in the format its extension names, and returns the path
  /// it took. `quality` applies to JPEG and WebP; nil means not asked: 90, or for a JPEG base written as JPEG, the
  /// base's own quantization and coding with every block the stamps leave alone kept exactly (see
  /// `JPEGTransplant`). A JPEG that falls back to pixels (`RenderPath.fallback`) keeps its chroma subsampling
  /// (4:2:0 for any subsampled photo: libvips writes no other) and its progressive coding.
  @discardableResult
  public func render(_ plan: RenderPlan, to output: String, quality: Int? = nil) throws -> RenderPath {
    guard OutputFormat(path: output) != nil else { throw RenderError.unsupportedFormat(path: output) }
    do {
      let (staged, path) = try stage(plan, to: try OutputTarget(path: output), quality: quality)
      try staged.commit()
      return path
    } catch let error as RenderError {
      // A broken input also fails while encoding (libvips decodes as it encodes): name the file at fault.
      throw error.diagnosed(reading: plan.base)
    }
  }

  /// `render` into a target held open; the output is left staged for the caller to commit with the job's others.
  public func stage(_ plan: RenderPlan, to target: OutputTarget, quality: Int? = nil) throws
    -> (file: StagedFile, path: RenderPath)
  {
    guard let format = target.format else { throw RenderError.unsupportedFormat(path: target.display) }
    try checkFileSize(try file(of: plan))
    let attempt = try JPEGTransplant.stage(plan, to: target, quality: quality, with: self)
    if let staged = attempt.staged { return (staged, attempt.path) }
    // The pixel path needs no coefficient arrays: those idle codecs keep from earlier photos go first.
    JPEGCodecPool.shared.dropIdle()
    let composed = try compose(plan, sixteenBits: format == .png || format == .tiff)
    let style = attempt.path.fallback == nil ? nil : attempt.facts.map(ImageWriter.JPEGStyle.init)
    let file = try composed.writing {
      try ImageWriter.stage($0, to: target, format: format, quality: quality ?? 90, style: style)
    }
    return (file, attempt.path)
  }

  /// Refuses a photo file over `maxFileBytes`, from the size of the file held open, before any of it is read.
  func checkFileSize(_ file: InputFile) throws {
    var info = stat()
    guard fstat(file.descriptor, &info) == 0 else { return }
    if Int64(info.st_size) > Int64(maxFileBytes) {
      throw RenderError.fileTooLarge(path: file.path, limit: maxFileBytes)
    }
  }

  /// The composited picture, upright, 8-bit sRGB (plus alpha if the base had it), metadata stripped but ICC.
  /// With `sixteenBits` (for outputs that hold them: PNG, TIFF), a 16-bit photo stays 16-bit RGB, stamps
  /// composited at that depth. `streams` reads an upright stamped photo once, top to bottom (for callers that
  /// consume it in order); off, a stamped photo is decoded whole first, for callers that read it in any order (an
  /// affine). Write the picture through `Composition.writing`, which tells the JPEG reader's failures.
  func compose(_ plan: RenderPlan, sixteenBits: Bool = false, streams: Bool = true) throws -> Composition {
    let file = try self.file(of: plan)
    let header = try Image.open(file, sequential: true, policy: inputs)
    guard header.width * header.height <= maxPixels else {
      throw RenderError.tooLarge(path: plan.base, width: header.width, height: header.height, limit: maxPixels)
    }
    // Sequential decoding streams the photo top to bottom, once; rotating reads it in another order, and so does
    // drawing more than `layersPerComposite` stamps (each group's result is decoded to memory as it is built):
    // random access then (the whole photo decoded before the first row is written).
    let streamable = streams && plan.stamps.count <= layersPerComposite
    let sequential = header.orientation == 1 && (streamable || plan.stamps.isEmpty)
    // When corrupt data fails the job, a JPEG photo is decoded by stampcam's reader, which finds damage past the
    // last row as it decodes; otherwise libjpeg reads the file once more first (`JPEGTransplant.verify`).
    let reader = inputs.failOn >= .error ? JPEGStream.open(file, like: header, maxBytes: maxFileBytes) : nil
    if reader == nil { try JPEGTransplant.verify(file, with: self) }
    let upright: Image
    if sequential {
      upright = try reader?.image(like: header) ?? header
    } else if let reader {
      // Read in another order: decoded whole first, in order (as libvips' loader does for random access).
      let photo = try reader.image(like: header)
      let whole = try reader.telling {
        try photo.evaluating { try photo.derive("decode") { scv_copy_memory($0, &$1) } }
      }
      upright = try whole.derive("autorotate") { scv_autorot($0, &$1) }
    } else {
      upright = try Image.open(file, sequential: false, policy: inputs).derive("autorotate") { scv_autorot($0, &$1) }
    }
    // Stamps are sRGB; a photo in another space (grey, CMYK, 16-bit) is brought to 8-bit sRGB first, and its
    // ICC profile, which described the old space, goes.
    let native = upright.isEightBitSRGB
    let deep = sixteenBits && upright.format == VIPS_FORMAT_USHORT
    var base =
      native
      ? upright
      : try upright.derive("colour conversion") { deep ? scv_to_rgb16($0, &$1) : scv_to_srgb($0, &$1) }
    // A 16-bit RGB photo keeps its pixels as they were, and so its profile.
    let keepsProfile = native || (deep && vips_image_get_interpretation(upright.pointer) == VIPS_INTERPRETATION_RGB16)
    // The bands' crops all read the loader's line cache, which holds a few hundred rows around the one being
    // decoded: enough, as libvips writes the joined bands top to bottom. But a join in a pipeline marked sequential
    // empties every cache upstream once its requests pass one of its pieces by 1024 rows, and the other crops
    // then re-read rows the decoder has gone past ("out of order read"). Unmarked while joining, marked again after.
    if sequential && !plan.stamps.isEmpty { base = try base.derive("stream") { scv_mark_sequential($0, &$1, 0) } }
    var composed = try composite(plan.stamps, onto: base, map: .identity)
    composed = try composed.derive("strip metadata") { scv_strip_metadata($0, &$1, keepsProfile ? 1 : 0, 0) }
    if sequential { composed = try composed.derive("stream") { scv_mark_sequential($0, &$1, 1) } }
    return Composition(image: composed, reader: reader)
  }

  /// The plan's base, as opened for the job, or opened now.
  func file(of plan: RenderPlan) throws -> InputFile {
    try plan.baseFile ?? InputFile.open(plan.base, root: inputs.root)
  }

  /// Draws `stamps` (placed in upright image space) onto `base` (8-bit sRGB, with or without alpha), whose
  /// pixels are that space carried through `map`. Only the bands the stamps cover are composited, each in one
  /// n-ary composite; the result has the base's size, bands and format.
  func composite(_ stamps: [RenderPlan.Stamp], onto base: Image, map: PlaneMap) throws -> Image {
    var pending: [Layer?] = try self.layers(stamps, map: map, width: base.width, height: base.height)
    guard !pending.isEmpty else { return base }
    let plan = BandPlan(boxes: pending.compactMap { $0 }.map { ($0.left, $0.top, $0.right, $0.bottom) })
    var rows: [Image] = []
    var y = 0
    for band in plan.bands {
      let height = band.bottom - band.top
      if band.top > y { rows.append(try base.crop(0, y, base.width, band.top - y)) }
      let middle = try base.crop(band.left, band.top, band.right - band.left, height)
      // Each group of layers is let go once drawn: its images hold libvips' buffers, and the stamps it drew.
      let indices = band.layers
      var row = [
        try blend(count: indices.count, onto: middle, left: band.left, top: band.top) { range in
          defer { for k in range { pending[indices[k]] = nil } }
          return range.compactMap { pending[indices[$0]] }
        }
      ]
      if band.left > 0 { row.insert(try base.crop(0, band.top, band.left, height), at: 0) }
      if band.right < base.width { row.append(try base.crop(band.right, band.top, base.width - band.right, height)) }
      rows.append(try Image.join(row, across: row.count))
      y = band.bottom
    }
    if y < base.height { rows.append(try base.crop(0, y, base.width, base.height - y)) }
    return try Image.join(rows, across: 1)
  }

  /// `stamps` transformed for a base of `width` x `height` whose pixels are upright space carried through `map`,
  /// in drawing order, each with the box it can change; stamps that draw nothing there are left out.
  func layers(_ stamps: [RenderPlan.Stamp], map: PlaneMap, width: Int, height: Int) throws -> [Layer] {
    try stamps.compactMap { try transformed($0, map: map, width: width, height: height) }
  }

  /// Layers composited at once, at most: libvips holds buffers for every input of a composite while it runs
  /// (some megabytes a layer: 1,000 stamps in one job took 1.9 GB). More are drawn in groups of this many, each
  /// group's result decoded to memory before the next is drawn over it.
  var layersPerComposite = 16

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
      drawn = last ? next : try next.evaluating { try next.derive("draw stamps") { scv_copy_memory($0, &$1) } }
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

  /// The stamp premultiplied, scaled, rotated and cut to the box it covers; nil when it is wholly off the photo.
  private func transformed(_ stamp: RenderPlan.Stamp, map: PlaneMap, width: Int, height: Int) throws
    -> Layer?
  {
    let prepared = try cache.stamp(stamp.image)
    let whole = GridRect(left: 0, top: 0, width: prepared.image.width, height: prepared.image.height)
    // A wholly transparent stamp draws nothing.
    guard let content = trimsTransparentMargins ? prepared.content : whole else { return nil }
    let p = stamp.placement
    var shrink = (1.0, 1.0)
    var reduced = false
    let size = prepared.pixelSize
    var sx = p.size.width * p.scale / size.width
    var sy = p.size.height * p.scale / size.height
    guard sx.isFinite, sy.isFinite, sx > 0, sy > 0 else { return nil }
    // A stamp drawn smaller than half a pixel across is not drawn at all; one drawn over a million pixels across
    // is a mistake in the manifest (and past what libvips' affine can place).
    guard size.width * sx >= 0.5, size.height * sy >= 0.5 else { return nil }
    let across = max(size.width * sx, size.height * sy)
    guard across <= 1_000_000 else {
      throw RenderError.operation(
        path: stamp.image, operation: "draw stamp \(p.id)",
        message:
          "it would be \(Int(saturating: across)) pixels across, over the limit of 1000000 (check its width and scale)")
    }
    var source = prepared.image
    var sourceCenter = StampPoint(size.width / 2, size.height / 2)
    // What can draw, in continuous source coordinates: the content, widened below by the resamplers' reach.
    var outline = (Double(content.left), Double(content.top), Double(content.right), Double(content.bottom))
    // Bicubic alone aliases when shrinking hard: let Lanczos take the stamp down first, the affine does the rest.
    if sx < 0.75 || sy < 0.75 {
      let (hs, vs) = (max(1, 1 / sx), max(1, 1 / sy))
      shrink = (hs, vs)
      let smaller = try source.derive("reduce") { scv_reduce($0, &$1, hs, vs) }
      // The reduced size is rounded: carry libvips' own placement of the points into the affine (see Reduction).
      let reduction = Reduction(
        hshrink: hs, vshrink: vs, from: (source.width, source.height), to: (smaller.width, smaller.height))
      reduced = true
      source = smaller
      sourceCenter = reduction.map(sourceCenter)
      sx *= hs
      sy *= vs
      // Lanczos-3 reaches three reduced pixels either way (3.5 with the half-pixel centring): four, to be safe.
      let topLeft = reduction.map(StampPoint(outline.0, outline.1))
      let bottomRight = reduction.map(StampPoint(outline.2, outline.3))
      outline = (topLeft.x - 4, topLeft.y - 4, bottomRight.x + 4, bottomRight.y + 4)
    }
    // Bicubic at libvips coordinate p reads pixels floor(p) - 1 ... floor(p) + 2, so a pixel reaches 1.5 either
    // way in continuous coordinates (and libvips draws up to half a pixel past a source's right and bottom edges):
    // two, to be safe. Past the outline the source is transparent, premultiplied (0, 0, 0, 0), exactly what the
    // affine puts beyond the source's edge, so cropping the source there changes no pixel.
    outline = (outline.0 - 2, outline.1 - 2, outline.2 + 2, outline.3 + 2)
    let drawable = GridRect(
      left: max(Int(saturating: outline.0.rounded(.down)), 0), top: max(Int(saturating: outline.1.rounded(.down)), 0),
      right: min(Int(saturating: outline.2.rounded(.up)), source.width),
      bottom: min(Int(saturating: outline.3.rounded(.up)), source.height))
    let radians = p.rotation * .pi / 180
    let (cosine, sine) = (cos(radians), sin(radians))
    // The stamp's own linear part in upright space, then carried through the map's.
    let (a, b, c, d) = (sx * cosine, -sy * sine, sx * sine, sy * cosine)
    let geometry = StampGeometry(
      sourceSize: StampSize(Double(source.width), Double(source.height)), sourceCenter: sourceCenter,
      linear: (map.a * a + map.b * c, map.a * b + map.b * d, map.c * a + map.d * c, map.c * b + map.d * d),
      center: map.apply(p.center), imageWidth: width, imageHeight: height, outline: outline)
    guard let drawable, let box = geometry.box,
      let window = geometry.sourceWindow(width: source.width, height: source.height, within: drawable)
    else { return nil }
    let (odx, ody) = geometry.offsets(croppedAt: window.left, window.top)
    let key = TransformCache.Key(
      image: stamp.image, shrink: [shrink.0, shrink.1],
      geometry: [geometry.a, geometry.b, geometry.c, geometry.d, odx, ody, Double(window.left), Double(window.top)],
      width: box.width, height: box.height)
    // The image is made when the layer is drawn, from the stamp as the cache has it then (decoded again if it
    // was dropped meanwhile).
    let (cache, path, sourceWidth, sourceHeight) = (self.cache, stamp.image, source.width, source.height)
    let covered = GridRect(left: box.left, top: box.top, width: box.width, height: box.height)
    // Only the first drawing counts as a request to the transform cache: a layer drawn in several strips of one
    // job would otherwise be "seen again", kept whole in memory and fill the cache with one-job placements
    // (64 MB more at the peak, and every kept layer evaluated whole).
    let draws = DrawCount()
    return Layer(box: covered) { [reduced, shrink] in
      draws.count += 1
      return try cache.transforms.layer(key, counts: draws.count == 1) {
        var source = try cache.stamp(path).image
        if reduced { source = try source.derive("reduce") { scv_reduce($0, &$1, shrink.0, shrink.1) } }
        guard source.width == sourceWidth, source.height == sourceHeight else {
          throw RenderError.operation(path: path, operation: "draw stamp", message: "the file changed during the job")
        }
        let all = window.width == source.width && window.height == source.height
        let visible = all ? source : try source.crop(window.left, window.top, window.width, window.height)
        return try visible.derive("affine") {
          scv_affine(
            $0, &$1, geometry.a, geometry.b, geometry.c, geometry.d, odx, ody, Int32(box.width), Int32(box.height),
            "bicubic", 1)
        }
      }
    }
  }
}

/// How many times a layer was drawn in its job (see `Renderer.transformed`).
private final class DrawCount {
  var count = 0
}
