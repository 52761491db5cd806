/// A stamp's scale and its rotation in degrees.
typealias StampPose = (scale: Double, rotation: Double)

/// What the gestures act on: the viewport and the stamps, and what each recognized gesture does to them.
struct Canvas: Sendable {
  /// The scroll view over the photo.
  var viewport: Viewport
  /// The stamps in drawing order (later ones on top).
  var stamps: [Stamp]
  /// The thresholds and modes.
  let settings: GestureSettings

  /// The topmost stamp (the last in drawing order) whose rotated, scaled rectangle contains view point `p`.
  func hitTest(_ p: StampPoint) -> Int? {
    let q = viewport.toImage(p)
    var index = stamps.count - 1
    while index >= 0 {
      if stamps[index].contains(q) { return index }
      index -= 1
    }
    return nil
  }

  /// One pinch step on stamp `index`: the scale is multiplied by `ratio` and clamped to the scale range at every step (so
  /// the result depends on the path), the rotation grows by `turn` radians; the centre stays where it is.
  @inline(__always) mutating func pinchStamp(_ index: Int, ratio: Double, turn: Double) {
    if stamps[index].locked { return }
    (stamps[index].scale, stamps[index].rotation) = step(pose(of: index), ratio: ratio, turn: turn)
  }

  /// Stamp `index`'s scale and rotation.
  @inline(__always) func pose(of index: Int) -> StampPose { (stamps[index].scale, stamps[index].rotation) }

  /// One pinch step on a pose: the scale multiplied by `ratio` and clamped to the scale range, the
  /// rotation grown by `turn` radians. A pinch that has not started yet steps a pose of its own this way, so that
  /// when it starts the stamp takes exactly what the steps would have given it.
  @inline(__always) func step(_ pose: StampPose, ratio: Double, turn: Double) -> StampPose {
    let range = settings.scaleRange
    return (min(max(pose.scale * ratio, range.lowerBound), range.upperBound), pose.rotation + turn * degreesPerRadian)
  }

  /// Gives stamp `index` the pose a pinch's steps reached (a locked stamp keeps its own).
  @inline(__always) mutating func setPose(_ index: Int, _ pose: StampPose) {
    if stamps[index].locked { return }
    (stamps[index].scale, stamps[index].rotation) = pose
  }

  /// A drag on stamp `index` by `delta` view points: the centre moves by delta / (fit * zoom) image pixels.
  @inline(__always) mutating func dragStamp(_ index: Int, by delta: StampPoint) {
    if stamps[index].locked { return }
    stamps[index].center = stamps[index].center + delta / viewport.scale
  }

  /// A drag on the background: the content follows the finger, clamped.
  @inline(__always) mutating func scroll(by delta: StampPoint) {
    viewport.scroll(by: delta)
  }

  /// A double tap at view point `p`: `toggle` (an image viewer's) zooms to the maximum centred on the tap when at the
  /// minimum and back to the minimum otherwise (keeping the view's centre, as setZoomScale does); `step` (zoom in by a
  /// fixed factor, multiplying) zooms by `zoomStep` centred on the tap.
  mutating func doubleTap(at p: StampPoint) {
    switch settings.doubleTap {
    case .toggle:
      if viewport.isAtMinimumZoom {
        viewport.zoom(to: settings.zoomRange.upperBound, centeredOn: viewport.toImage(p))
      } else {
        viewport.zoom(to: settings.zoomRange.lowerBound, centeredOn: viewport.toImage(viewport.viewCenter))
      }
    case .step:
      viewport.zoom(to: viewport.zoom * settings.zoomStep, centeredOn: viewport.toImage(p))
    }
  }

  /// A two-finger tap at view point `p`: zooms out by `zoomStep`, centred on it.
  mutating func twoFingerTap(at p: StampPoint) {
    viewport.zoom(to: viewport.zoom / settings.zoomStep, centeredOn: viewport.toImage(p))
  }
}
