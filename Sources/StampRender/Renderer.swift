import CVips
import CVipsShim
import Foundation
import StampCore

/// Draws render plans onto full-resolution photos and writes the results.
public struct Renderer: Sendable {
  /// Decoded stamps, shared by every job of the batch.
  public let cache: StampCache
  /// Photos with more pixels are refused from their header, before any decoding.
  public var maxPixels: Int

  /// Creates a renderer over a stamp cache.
  public init(cache: StampCache = StampCache(), maxPixels: Int = 100_000_000) {
    self.cache = cache
    self.maxPixels = maxPixels
  }

  /// Renders `plan` and writes it atomically to `output`, in the format its extension names.
  /// `quality` applies to JPEG and WebP (default 90).
  public func render(_ plan: RenderPlan, to output: String, quality: Int = 90) throws {
    guard let format = OutputFormat(path: output) else { throw RenderError.unsupportedFormat(path: output) }
    let image = try compose(plan)
    try ImageWriter.write(image, to: output, format: format, quality: quality)
  }

  /// The composited picture, upright, 8-bit sRGB (plus alpha if the base had it), metadata stripped but ICC.
  func compose(_ plan: RenderPlan) throws -> Image {
    let header = try Image.open(plan.base, sequential: true)
    guard header.width * header.height <= maxPixels else {
      throw RenderError.tooLarge(path: plan.base, width: header.width, height: header.height, limit: maxPixels)
    }
    // Rotating needs the pixels in another order than they are stored: random access only then.
    let base = header.orientation == 1
      ? header : try Image.open(plan.base, sequential: false).derive("autorotate") { scv_autorot($0, &$1) }
    let composed = try composite(plan.stamps, onto: base, map: .identity)
    // An ICC profile describes the base's colour space; drop it if compositing changed the band layout.
    let keepICC = composed.bands == base.bands
    return try composed.derive("strip metadata") { scv_strip_metadata($0, &$1, keepICC ? 1 : 0, 0) }
  }

  /// Draws `stamps` (placed in upright image space) onto `base`, whose pixels are that space carried through
  /// `map`, in one n-ary composite. The result has the base's bands, 8-bit.
  func composite(_ stamps: [RenderPlan.Stamp], onto base: Image, map: PlaneMap) throws -> Image {
    var layers = [base.hasAlpha ? try base.derive("premultiply") { scv_premultiply($0, &$1) } : base]
    var xs: [Int32] = []
    var ys: [Int32] = []
    for stamp in stamps {
      guard let layer = try transformed(stamp, map: map, width: base.width, height: base.height) else { continue }
      layers.append(layer.image)
      xs.append(Int32(layer.left))
      ys.append(Int32(layer.top))
    }
    guard layers.count > 1 else { return base }
    var pointers: [UnsafeMutablePointer<VipsImage>?] = layers.map { $0.pointer }
    var out: UnsafeMutablePointer<VipsImage>?
    let status = pointers.withUnsafeMutableBufferPointer { buffer in
      scv_composite(buffer.baseAddress, Int32(layers.count), Int32(VIPS_BLEND_MODE_OVER.rawValue), xs, ys, 1, &out)
    }
    guard status == 0, let result = out else {
      throw RenderError.operation(path: base.source, operation: "composite", message: Vips.takeError())
    }
    var composed = Image(owning: result, source: base.source)
    if base.hasAlpha {
      composed = try composed.derive("unpremultiply") { scv_unpremultiply($0, &$1) }
    } else {
      // Compositing adds an alpha band; an opaque photo stays opaque.
      let colour = Int32(composed.bands - 1)
      composed = try composed.derive("extract colour") { scv_extract_bands($0, &$1, 0, colour) }
    }
    return composed.format == VIPS_FORMAT_UCHAR
      ? composed : try composed.derive("cast") { scv_cast($0, &$1, VIPS_FORMAT_UCHAR) }
  }

  /// The stamp premultiplied, scaled, rotated and cut to the box it covers; nil when it is wholly off the photo.
  private func transformed(_ stamp: RenderPlan.Stamp, map: PlaneMap, width: Int, height: Int) throws
    -> (image: Image, left: Int, top: Int)?
  {
    let prepared = try cache.stamp(stamp.image)
    let p = stamp.placement
    let size = prepared.pixelSize
    var sx = p.size.width * p.scale / size.width
    var sy = p.size.height * p.scale / size.height
    guard sx.isFinite, sy.isFinite, sx > 0, sy > 0 else { return nil }
    var source = prepared.image
    var sourceCenter = Point(size.width / 2, size.height / 2)
    // Bicubic alone aliases when shrinking hard: let Lanczos take the stamp down first, the affine does the rest.
    if sx < 0.75 || sy < 0.75 {
      let (hs, vs) = (max(1, 1 / sx), max(1, 1 / sy))
      source = try source.derive("reduce") { scv_reduce($0, &$1, hs, vs) }
      sourceCenter = Point(sourceCenter.x / hs, sourceCenter.y / vs)
      sx *= hs
      sy *= vs
    }
    let radians = p.rotation * .pi / 180
    let (cosine, sine) = (cos(radians), sin(radians))
    // The stamp's own linear part in upright space, then carried through the map's.
    let (a, b, c, d) = (sx * cosine, -sy * sine, sx * sine, sy * cosine)
    let geometry = StampGeometry(
      sourceSize: Size(Double(source.width), Double(source.height)), sourceCenter: sourceCenter,
      linear: (map.a * a + map.b * c, map.a * b + map.b * d, map.c * a + map.d * c, map.c * b + map.d * d),
      center: map.apply(p.center), imageWidth: width, imageHeight: height)
    guard let box = geometry.box else { return nil }
    let image = try source.derive("affine") {
      scv_affine(
        $0, &$1, geometry.a, geometry.b, geometry.c, geometry.d, geometry.odx, geometry.ody,
        Int32(box.width), Int32(box.height), "bicubic", 1)
    }
    return (image, box.left, box.top)
  }
}
