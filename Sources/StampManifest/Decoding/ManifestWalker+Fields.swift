import StampCore

/// Checks of an object's fields, with the bounds and choices `Shapes` gives them. Each returns nil both when the
/// key is absent (nothing reported) and when its value is wrong (reported).
extension ManifestWalker {
  mutating func number(_ m: [JSONMember], _ shape: Shape, _ name: String, _ path: String) -> Double? {
    guard let v = value(m, name) else { return nil }
    return number(v, shape.bounds(name), child(path, name))
  }

  mutating func integer(_ m: [JSONMember], _ shape: Shape, _ name: String, _ path: String) -> Int? {
    guard let v = value(m, name) else { return nil }
    return integer(v, shape.bounds(name), child(path, name))
  }

  mutating func string(_ m: [JSONMember], _ name: String, _ path: String) -> String? {
    guard let v = value(m, name) else { return nil }
    return string(v, child(path, name))
  }

  mutating func identifier(_ m: [JSONMember], _ name: String, _ path: String) -> String? {
    guard let v = value(m, name) else { return nil }
    return identifier(v, child(path, name))
  }

  mutating func bool(_ m: [JSONMember], _ name: String, _ path: String) -> Bool? {
    guard let v = value(m, name) else { return nil }
    return bool(v, child(path, name))
  }

  mutating func point(_ m: [JSONMember], _ name: String, _ path: String) -> StampPoint? {
    guard let v = value(m, name) else { return nil }
    return point(v, child(path, name))
  }

  mutating func range(_ m: [JSONMember], _ name: String, _ path: String) -> ClosedRange<Double>? {
    guard let v = value(m, name) else { return nil }
    return range(v, child(path, name))
  }

  /// A path resolved against the manifest's folder.
  mutating func inputPath(_ m: [JSONMember], _ name: String, _ path: String) -> String? {
    string(m, name, path).map { PathRules.resolve($0, in: folder) }
  }

  /// An output path, normalized, or nil (reported) when it would leave `--out`.
  mutating func outputPath(_ m: [JSONMember], _ name: String, _ path: String) -> String? {
    guard let v = value(m, name), let text = string(v, child(path, name)) else { return nil }
    if let refusal = PathRules.refusal(ofOutput: text, maxComponents: limits.maxOutputComponents) {
      report(v, child(path, name), "\(refusal)")
      return nil
    }
    return PathRules.normalize(text)
  }

  /// `{width, height, screenScale}`.
  mutating func view(_ v: JSONValue, _ path: String) -> ViewSpec? {
    guard let m = members(v, Shapes.view, path) else { return nil }
    let width = number(m, Shapes.view, "width", path)
    let height = number(m, Shapes.view, "height", path)
    let screenScale = value(m, "screenScale") == nil ? 1 : number(m, Shapes.view, "screenScale", path)
    guard let width, let height, let screenScale else { return nil }
    return ViewSpec(size: StampSize(width, height), screenScale: screenScale)
  }

  mutating func settings(_ v: JSONValue, _ path: String) -> SettingsPatch {
    var patch = SettingsPatch()
    guard let m = members(v, Shapes.settings, path) else { return patch }
    let shape = Shapes.settings
    patch.scaleRange = range(m, "scaleRange", path)
    patch.zoomRange = range(m, "zoomRange", path)
    if let mode = value(m, "doubleTap") {
      let options = DoubleTapMode.allCases.map(\.rawValue)
      patch.doubleTap = choice(mode, options, "mode", child(path, "doubleTap")).flatMap(DoubleTapMode.init)
    }
    patch.zoomStep = number(m, shape, "zoomStep", path)
    patch.tapMaxDuration = number(m, shape, "tapMaxDuration", path)
    patch.tapSlop = number(m, shape, "tapSlop", path)
    patch.pinchSlop = number(m, shape, "pinchSlop", path)
    patch.doubleTapInterval = number(m, shape, "doubleTapInterval", path)
    patch.doubleTapDistance = number(m, shape, "doubleTapDistance", path)
    patch.pinchMoves = bool(m, "pinchMoves", path)
    patch.quality = integer(m, shape, "quality", path)
    return patch
  }
}
