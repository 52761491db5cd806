import StampCore

extension ManifestWriter {
  /// One item of the gesture script: an object with one key, its defaults left out.
  package func gesture(_ item: GestureItem) -> JSONText {
    switch item {
    case .touches(let events):
      return .object([("touches", .array(events.map(touch)))])
    case .tap(let p):
      return .object([("tap", .object([("at", .pair(p.x, p.y))]))])
    case .doubleTap(let p):
      return .object([("doubleTap", .object([("at", .pair(p.x, p.y))]))])
    case .twoFingerTap(let p):
      return .object([("twoFingerTap", .object([("at", .pair(p.x, p.y))]))])
    case .pinch(let pinch):
      let defaults = PinchItem(target: pinch.target)
      var members = [target(pinch.target, point: "at")]
      if pinch.scale != defaults.scale { members.append(("scale", .number(pinch.scale))) }
      if pinch.rotation != defaults.rotation { members.append(("rotation", .number(pinch.rotation))) }
      if pinch.duration != defaults.duration { members.append(("duration", .number(pinch.duration))) }
      if pinch.steps != defaults.steps { members.append(("steps", .literal(String(pinch.steps)))) }
      return .object([("pinch", .object(members))])
    case .drag(let drag):
      let defaults = DragItem(from: drag.from, by: drag.by)
      var members = [target(drag.from, point: "from"), ("by", .pair(drag.by.x, drag.by.y))]
      if drag.duration != defaults.duration { members.append(("duration", .number(drag.duration))) }
      if drag.steps != defaults.steps { members.append(("steps", .literal(String(drag.steps)))) }
      return .object([("drag", .object(members))])
    }
  }

  /// The settings that differ from the design's defaults.
  package func settings(_ settings: GestureSettings) -> [(String, JSONText)] {
    let defaults = GestureSettings()
    var members: [(String, JSONText)] = []
    func number(_ key: String, _ value: Double, _ standard: Double) {
      if value != standard { members.append((key, .number(value))) }
    }
    if settings.scaleRange != defaults.scaleRange {
      members.append(("scaleRange", .pair(settings.scaleRange.lowerBound, settings.scaleRange.upperBound)))
    }
    if settings.zoomRange != defaults.zoomRange {
      members.append(("zoomRange", .pair(settings.zoomRange.lowerBound, settings.zoomRange.upperBound)))
    }
    if settings.doubleTap != defaults.doubleTap { members.append(("doubleTap", .string(settings.doubleTap.rawValue))) }
    number("zoomStep", settings.zoomStep, defaults.zoomStep)
    number("tapMaxDuration", settings.tapMaxDuration, defaults.tapMaxDuration)
    number("tapSlop", settings.tapSlop, defaults.tapSlop)
    number("pinchSlop", settings.pinchSlop, defaults.pinchSlop)
    number("doubleTapInterval", settings.doubleTapInterval, defaults.doubleTapInterval)
    number("doubleTapDistance", settings.doubleTapDistance, defaults.doubleTapDistance)
    if settings.pinchMoves != defaults.pinchMoves {
      members.append(("pinchMoves", .literal(String(settings.pinchMoves))))
    }
    if let quality = settings.quality { members.append(("quality", .literal(String(quality)))) }
    return members
  }

  private func target(_ target: GestureTarget, point key: String) -> (String, JSONText) {
    switch target {
    case .stamp(let id): return ("on", .string(id))
    case .point(let p): return (key, .pair(p.x, p.y))
    }
  }
}
