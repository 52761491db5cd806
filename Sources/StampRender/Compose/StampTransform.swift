import CVips
import CVipsGlue
import Foundation
import StampCore
import StampFiles

extension Compositor {
  /// The stamp premultiplied, scaled, rotated and cut to the box it covers; nil when it is wholly off the photo.
  func transformed(_ stamp: RenderPlan.Stamp, map: PlaneMap, width: Int, height: Int) throws
    -> Layer?
  {
    let header = try cache.header(of: stamp.image)
    let size = header.uprightSize
    let p = stamp.placement
    var shrink = (1.0, 1.0)
    var reduced = false
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
    // Decoded only as large as it is drawn (see `StampShrink`), and counted against the job's budget.
    let radians = p.rotation * .pi / 180
    let (cosine, sine) = (cos(radians), sin(radians))
    let factor = StampShrink.factor(
      size: size,
      linear: (
        map.a * sx * cosine + map.b * sx * sine, -map.a * sy * sine + map.b * sy * cosine,
        map.c * sx * cosine + map.d * sx * sine, -map.c * sy * sine + map.d * sy * cosine
      ))
    try context?.budget?.charge(
      stamp.image, factor: factor,
      pixels: StampShrink.decodedPixels(width: header.width, height: header.height, factor: factor), stamp: p.id)
    let prepared = try cache.stamp(stamp.image, shrink: factor, control: context?.control)
    guard prepared.pixelSize == size else {
      throw RenderError.operation(
        path: stamp.image, operation: "draw stamp", message: "the file changed during the job")
    }
    let whole = GridRect(left: 0, top: 0, width: prepared.image.width, height: prepared.image.height)
    // A wholly transparent stamp draws nothing.
    guard let content = trimsTransparentMargins ? prepared.content : whole else { return nil }
    sx *= Double(factor)
    sy *= Double(factor)
    let decoded = (width: prepared.image.width, height: prepared.image.height)
    // The size of the source the affine reads: the decoded stamp, or its reduction (made when the layer is drawn).
    var sourceSize = decoded
    var sourceCenter = prepared.map(StampPoint(size.width / 2, size.height / 2))
    // What can draw, in continuous source coordinates: the content, widened below by the resamplers' reach.
    var outline = (Double(content.left), Double(content.top), Double(content.right), Double(content.bottom))
    // Bicubic alone aliases when shrinking hard: let Lanczos take the stamp down first, the affine does the rest.
    if sx < 0.75 || sy < 0.75 {
      let (hs, vs) = (max(1, 1 / sx), max(1, 1 / sy))
      shrink = (hs, vs)
      // The reduced size is rounded: carry libvips' own placement of the points into the affine (see Reduction).
      let reduction = Reduction(hshrink: hs, vshrink: vs, from: decoded)
      reduced = true
      sourceSize = reduction.to
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
      right: min(Int(saturating: outline.2.rounded(.up)), sourceSize.width),
      bottom: min(Int(saturating: outline.3.rounded(.up)), sourceSize.height))
    // The stamp's own linear part in upright space, then carried through the map's.
    let (a, b, c, d) = (sx * cosine, -sy * sine, sx * sine, sy * cosine)
    let geometry = StampGeometry(
      sourceSize: StampSize(Double(sourceSize.width), Double(sourceSize.height)), sourceCenter: sourceCenter,
      linear: (map.a * a + map.b * c, map.a * b + map.b * d, map.c * a + map.d * c, map.c * b + map.d * d),
      center: map.apply(p.center), imageWidth: width, imageHeight: height, outline: outline)
    guard let drawable, let box = geometry.box,
      let window = geometry.sourceWindow(width: sourceSize.width, height: sourceSize.height, within: drawable)
    else { return nil }
    let (odx, ody) = geometry.offsets(croppedAt: window.left, window.top)
    let key = TransformCache.Key(
      image: PathKey(stamp.image), decode: prepared.decode, shrink: [Double(factor), shrink.0, shrink.1],
      geometry: [geometry.a, geometry.b, geometry.c, geometry.d, odx, ody, Double(window.left), Double(window.top)],
      width: box.width, height: box.height)
    // The image is made when the layer is drawn, from the stamp as the cache has it then (decoded again if it
    // was dropped meanwhile).
    let (cache, path) = (self.cache, stamp.image)
    let covered = GridRect(left: box.left, top: box.top, width: box.width, height: box.height)
    // Only the first drawing counts as a request to the transform cache: a layer drawn in several strips of one
    // job would otherwise be "seen again", kept whole in memory and fill the cache with one-job placements
    // (64 MB more at the peak, and every kept layer evaluated whole).
    let draws = DrawCount()
    let control = context?.control
    return Layer(box: covered) { [reduced, shrink] in
      draws.count += 1
      return try cache.transforms.layer(key, counts: draws.count == 1, control: control) {
        var source = try cache.stamp(path, shrink: factor, control: control).image
        guard source.width == decoded.width, source.height == decoded.height else {
          throw RenderError.operation(path: path, operation: "draw stamp", message: "the file changed during the job")
        }
        if reduced {
          source = try source.derive("reduce") { scv_reduce($0, &$1, shrink.0, shrink.1) }
          guard source.width == sourceSize.width, source.height == sourceSize.height else {
            throw RenderError.operation(
              path: path, operation: "reduce stamp",
              message:
                "libvips made \(source.width) x \(source.height) pixels, not \(sourceSize.width) x \(sourceSize.height)"
            )
          }
        }
        let all = window.width == source.width && window.height == source.height
        var visible = all ? source : try source.crop(window.left, window.top, window.width, window.height)
        if reduced {
          // Reduced once, into memory: the affine asks for the source's rectangle under each strip of its output,
          // and for a turned stamp those overlap, so a reduce read through would make the same pixels again for
          // every strip (3.6 times the reduce's instructions on the photo workload, counted with callgrind).
          let lazy = visible
          visible = try lazy.evaluating(under: control) { try lazy.derive("reduce stamp") { scv_copy_memory($0, &$1) } }
        }
        return try visible.derive("affine") {
          scv_affine(
            $0, &$1, geometry.a, geometry.b, geometry.c, geometry.d, odx, ody, Int32(box.width), Int32(box.height),
            "bicubic", 1)
        }
      }
    }
  }
}

/// How many times a layer was drawn in its job (see `Compositor.transformed`).
private final class DrawCount {
  var count = 0
}
