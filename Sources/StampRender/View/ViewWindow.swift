import CVips
import CVipsGlue
import StampCore
import StampFiles

/// What the screen showed: a rectangle of image space (it may reach past the photo, where the screen showed
/// letterbox bars) drawn into an output of `pixelWidth` x `pixelHeight`.
package struct ViewWindow: Sendable, Hashable {
  /// The rectangle of image space the whole view covers.
  package var visible: StampRect
  /// The output's width in pixels (view width in points times the screen scale).
  package var pixelWidth: Int
  /// The output's height in pixels.
  package var pixelHeight: Int

  /// The window for a view of `viewSize` points at `screenScale` pixels per point showing `visible`.
  package init(visible: StampRect, viewSize: StampSize, screenScale: Double) {
    self.visible = visible
    (pixelWidth, pixelHeight) = Self.pixelSize(viewSize: viewSize, screenScale: screenScale)
  }

  /// The output's size in pixels for a view of `viewSize` points at `screenScale` pixels per point.
  package static func pixelSize(viewSize: StampSize, screenScale: Double) -> (width: Int, height: Int) {
    (
      max(1, Int(saturating: (viewSize.width * screenScale).rounded())),
      max(1, Int(saturating: (viewSize.height * screenScale).rounded()))
    )
  }

  /// Output pixels per image pixel.
  var factor: Double { Double(pixelWidth) / visible.size.width }
}

extension Renderer {
  /// Stages what the screen showed, `window` for `target`; the output is left staged for the caller to commit.
  package func stageView(_ plan: RenderPlan, window: ViewWindow, to target: OutputTarget, quality: Int? = nil) throws
    -> StagedFile
  {
    guard let format = target.format else { throw RenderError.unsupportedFormat(path: target.display) }
    // The window's affine reads the picture out of order: a stamped photo is decoded whole first.
    let composed = try compose(plan, streams: false)
    return try composed.writing { picture in
      try stage(picture, window: window, to: target, format: format, quality: quality)
    }
  }

  /// The largest factor the view's Lanczos reduce is given: libvips 8.14's is exact up to it.
  static let maxReduce = 8.0

  /// A view's `shrink` as a whole box-average factor (1: none) and the factor left for the reduce, at most
  /// `maxReduce` unless the box would pass `largest` (the photo's longer side, which it averages to one pixel).
  static func viewShrink(_ shrink: Double, largest: Int) -> (box: Int, rest: Double) {
    guard shrink.isFinite, shrink > maxReduce else { return (1, shrink) }
    let box = Int(min((shrink / maxReduce).rounded(.up), Double(max(largest, 1))))
    return (box, shrink / Double(box))
  }

  /// `picture` (the composed photo) cut to `window` and staged for `target`.
  private func stage(_ picture: Image, window: ViewWindow, to target: OutputTarget, format: OutputFormat, quality: Int?)
    throws -> StagedFile
  {
    let flat =
      picture.hasAlpha
      ? try picture.derive("drop alpha") { scv_extract_bands($0, &$1, 0, Int32(picture.bands - 1)) } : picture
    var source = flat
    var k = window.factor
    var origin = window.visible.origin
    // Shrinking a 12-megapixel photo to a phone screen: Lanczos first, then the affine places it to a fraction of a
    // pixel. The reduced size is rounded, so the window's origin is carried into the reduced image as libvips puts
    // its points (see Reduction); it then shows at scale 1.
    // libvips 8.14's Lanczos-3 reduce darkens a picture past a factor of 8 (a flat grey of 200 comes out 198 at 12,
    // 187 at 128, 184 at 250) and refuses one past 333 ("reduce factor too large"), which a small screen over a
    // large photo needs: such a factor is first box-averaged by a whole factor (exact, and black past the photo, as
    // the screen's bars are), leaving the reduce at most 8.
    if k < 1 {
      let (box, rest) = Self.viewShrink(1 / k, largest: max(source.width, source.height))
      if box > 1 {
        let boxed = try source.derive("shrink") { scv_box_shrink($0, &$1, Int32(box), 0, 0) }
        origin = StampPoint(origin.x / Double(box), origin.y / Double(box))
        source = boxed
      }
      if rest <= Self.maxReduce {
        let reduced = try source.derive("reduce") { scv_reduce($0, &$1, rest, rest) }
        origin = Reduction(
          hshrink: rest, vshrink: rest, from: (source.width, source.height), to: (reduced.width, reduced.height)
        ).map(origin)
        source = reduced
        k = 1
      } else {
        // The whole photo is one pixel and still far smaller than one of the screen's: the affine places it.
        k = 1 / rest
      }
    }
    // u_out = k * (u_source - origin), in libvips' coordinates (pixel i sampled at i).
    let odx = k * 0.5 - 0.5 - k * origin.x
    let ody = k * 0.5 - 0.5 - k * origin.y
    let view = try source.derive("view") {
      scv_affine(
        $0, &$1, k, 0, 0, k, odx, ody, Int32(clamping: window.pixelWidth), Int32(clamping: window.pixelHeight),
        "bicubic", 0)
    }
    let eight = try view.derive("cast") { scv_cast($0, &$1, VIPS_FORMAT_UCHAR) }
    return try ImageWriter.stage(eight, to: target, format: format, quality: quality ?? 90, in: context)
  }
}
