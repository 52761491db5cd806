/// The checks a scene passes before it is replayed, so that no NaN or infinity reaches the geometry.
enum SceneCheck {
  /// Throws for the first size, stamp or setting out of range.
  static func validate(_ spec: SceneSpec) throws(ReplayError) {
    try positive(spec.imageSize, "imageSize")
    if let view = spec.view { try positive(view, "view") }
    try settings(spec.settings)
    var seen = Set<String>()
    for (index, stamp) in spec.stamps.enumerated() {
      let path = "stamps[\(index)]"
      try require(seen.insert(stamp.id).inserted, "\(path).id", "duplicate stamp id \"\(stamp.id)\"")
      try require(stamp.center.isFinite, "\(path).center", "must be finite numbers")
      if let width = stamp.width { try positive(width, "\(path).width") }
      try positive(stamp.pixelSize, "\(path).pixelSize")
      try positive(stamp.scale, "\(path).scale")
      try require(stamp.rotation.isFinite, "\(path).rotation", "must be a finite number")
    }
  }

  /// The most pixels across a stamp may be drawn: more is a mistake in the manifest (a width or scale off by
  /// orders of magnitude) and past what libvips' affine can place.
  static let maxStampPixels = 1_000_000.0

  /// Throws for the first number of a replayed scene that is not finite (a stamp's centre, size, scale or
  /// rotation, the viewport, where a gesture was recognized), or a stamp drawn over `maxStampPixels` across.
  /// Replay runs it on every result, so a render plan is only ever built from numbers that fit in pixels.
  static func validate(_ result: SceneResult) throws(ReplayError) {
    for (index, stamp) in result.stamps.enumerated() {
      let path = "stamps[\(index)]"
      try require(stamp.center.isFinite, "\(path).center", "is not finite after the gestures (check the zoom range)")
      try positive(stamp.size, "\(path).size")
      try positive(stamp.scale, "\(path).scale")
      try require(stamp.rotation.isFinite, "\(path).rotation", "is not finite after the gestures")
      let across = max(stamp.size.width, stamp.size.height) * stamp.scale
      try require(
        across <= maxStampPixels, path,
        "it would be \(Int(saturating: across)) pixels across, over the limit of \(Int(maxStampPixels)) "
          + "(check its width and scale)")
    }
    let viewport = result.viewport
    try positive(viewport.zoom, "viewport.zoom")
    let visible = viewport.visible
    try require(visible.origin.isFinite, "viewport.visible", "is not finite (check the view and the zoom range)")
    try positive(visible.size, "viewport.visible")
    if let index = result.gestures.firstIndex(where: { !$0.at.isFinite }) {
      throw .invalidScene(path: "recognized[\(index)].at", message: "is not finite (check the view and the zoom range)")
    }
  }

  private static func settings(_ s: GestureSettings) throws(ReplayError) {
    try range(s.scaleRange, "settings.scaleRange")
    try range(s.zoomRange, "settings.zoomRange")
    try positive(s.zoomStep, "settings.zoomStep")
    try nonNegative(s.tapMaxDuration, "settings.tapMaxDuration")
    try nonNegative(s.tapSlop, "settings.tapSlop")
    try nonNegative(s.pinchSlop, "settings.pinchSlop")
    try nonNegative(s.doubleTapInterval, "settings.doubleTapInterval")
    try nonNegative(s.doubleTapDistance, "settings.doubleTapDistance")
  }

  private static func range(_ r: ClosedRange<Double>, _ path: String) throws(ReplayError) {
    let ok = r.lowerBound.isFinite && r.upperBound.isFinite && r.lowerBound > 0
    let text = "\(formatNumber(r.lowerBound))...\(formatNumber(r.upperBound))"
    try require(ok, path, "must be finite and positive, not \(text)")
  }

  private static func positive(_ size: StampSize, _ path: String) throws(ReplayError) {
    try positive(size.width, "\(path).width")
    try positive(size.height, "\(path).height")
  }

  private static func positive(_ value: Double, _ path: String) throws(ReplayError) {
    try require(value.isFinite && value > 0, path, "must be a positive number, not \(formatNumber(value))")
  }

  private static func nonNegative(_ value: Double, _ path: String) throws(ReplayError) {
    try require(value.isFinite && value >= 0, path, "must be a number of at least 0, not \(formatNumber(value))")
  }

  private static func require(_ ok: Bool, _ path: String, _ message: @autoclosure () -> String) throws(ReplayError) {
    if !ok { throw .invalidScene(path: path, message: message()) }
  }
}
