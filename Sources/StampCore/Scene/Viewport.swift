/// The screen's scroll view over the photo: the fit, the zoom, the centring insets and the
/// content offset, and the mapping between view points and image pixels.
///
/// The photo is fitted into the view keeping its aspect ratio and never enlarged: f = min(viewW/imgW, viewH/imgH, 1).
/// At zoom z the content is image * f * z; while it is smaller than the view it is centred with insets
/// max((view - content) / 2, 0); the offset o stays within [0, max(content - view, 0)] per axis. A view point p
/// shows the image point (p + o - inset) / (f * z).
struct Viewport: Sendable, Hashable {
  /// The photo's size in image pixels.
  let imageSize: StampSize
  /// The view's size in points.
  let viewSize: StampSize
  /// The zoom range; the zoom starts at its lower bound.
  let zoomRange: ClosedRange<Double>
  /// View points per image pixel at zoom 1; at most 1.
  let fit: Double
  /// The current zoom, within `zoomRange`.
  private(set) var zoom: Double
  /// The content offset in view points, within [0, maxOffset]; it starts at zero, as a scroll view does.
  private(set) var offset = StampPoint.zero

  /// Creates the viewport as the screen first shows it: zoomed to the lower bound, scrolled to the top-left.
  init(imageSize: StampSize, viewSize: StampSize, zoomRange: ClosedRange<Double>) {
    self.imageSize = imageSize
    self.viewSize = viewSize
    self.zoomRange = zoomRange
    fit = min(viewSize.width / imageSize.width, viewSize.height / imageSize.height, 1)
    zoom = zoomRange.lowerBound
    offset = clamped(.zero)
  }

  /// View points per image pixel: fit times zoom.
  @inline(__always) var scale: Double { fit * zoom }

  /// The zoomed photo's size in view points.
  var contentSize: StampSize { StampSize(imageSize.width * scale, imageSize.height * scale) }

  /// The centring insets: where the content's top-left sits while it is smaller than the view.
  @inline(__always) var inset: StampPoint {
    let k = scale
    return StampPoint(
      max((viewSize.width - imageSize.width * k) / 2, 0), max((viewSize.height - imageSize.height * k) / 2, 0))
  }

  /// The largest offset per axis: how far the content can scroll.
  var maxOffset: StampPoint {
    let k = scale
    return StampPoint(max(imageSize.width * k - viewSize.width, 0), max(imageSize.height * k - viewSize.height, 0))
  }

  /// The view's centre in view points.
  var viewCenter: StampPoint { StampPoint(viewSize.width / 2, viewSize.height / 2) }

  /// The image point shown at view point `p`.
  @inline(__always) func toImage(_ p: StampPoint) -> StampPoint { (p + offset - inset) / scale }

  /// The view point where image point `q` is shown.
  @inline(__always) func toView(_ q: StampPoint) -> StampPoint { q * scale + inset - offset }

  /// The whole view mapped into image pixels; it reaches past the photo where the view shows letterbox bars.
  var visible: StampRect {
    let origin = toImage(.zero)
    let k = scale
    return StampRect(x: origin.x, y: origin.y, width: viewSize.width / k, height: viewSize.height / k)
  }

  /// Whether the zoom is at the lower bound (to a relative 1e-9, so that a zoom that came back by arithmetic counts).
  var isAtMinimumZoom: Bool { zoom <= zoomRange.lowerBound * (1 + 1e-9) }

  /// Sets the zoom (clamped to the range), puts image point `q` at view point `p`, then clamps the offset.
  mutating func setZoom(_ newZoom: Double, keeping q: StampPoint, at p: StampPoint) {
    zoom = min(max(newZoom, zoomRange.lowerBound), zoomRange.upperBound)
    offset = clamped(q * scale + inset - p)
  }

  /// Zooms to a point, as a scroll view's zoom(to: rect) with the rect centred on it: image point `q` goes to the
  /// view's centre, then the offset is clamped.
  mutating func zoom(to newZoom: Double, centeredOn q: StampPoint) {
    setZoom(newZoom, keeping: q, at: viewCenter)
  }

  /// Scrolls as a finger moving by `delta` view points does: the content follows the finger, clamped.
  mutating func scroll(by delta: StampPoint) {
    offset = clamped(offset - delta)
  }

  private func clamped(_ o: StampPoint) -> StampPoint {
    let limit = maxOffset
    return StampPoint(min(max(o.x, 0), limit.x), min(max(o.y, 0), limit.y))
  }
}
