import StampCore

extension ManifestWalker {
  /// The gesture script; touch events are counted across the job against `limits.maxTouchEvents`.
  mutating func gestures(_ v: JSONValue, _ path: String, stampIDs: Set<String>) -> [GestureItem] {
    guard case .array(let items) = v.kind else {
      report(v, path, "expected an array, found \(v.typeName)")
      return []
    }
    var events = 0
    var gestures: [GestureItem] = []
    for (i, item) in items.enumerated() {
      if let gesture = gesture(item, element(path, i), stampIDs: stampIDs, events: &events) {
        gestures.append(gesture)
      }
      if events > limits.maxTouchEvents {
        report(item, element(path, i), "more than \(limits.maxTouchEvents) touch events in this job (the limit)")
        break
      }
    }
    return gestures
  }

  /// One item: an object with exactly one key naming the kind of gesture.
  mutating func gesture(_ v: JSONValue, _ path: String, stampIDs: Set<String>, events: inout Int) -> GestureItem? {
    let kinds = Shapes.gesture.exactlyOneOf
    guard case .object(let m) = v.kind else {
      report(v, path, "expected an object with one key (\(kinds.joined(separator: ", "))), found \(v.typeName)")
      return nil
    }
    guard m.count == 1, let member = m.first else {
      let found = m.isEmpty ? "none" : "\(m.count): " + m.map(\.key).joined(separator: ", ")
      report(v, path, "a gesture needs exactly one key (\(kinds.joined(separator: ", "))), found \(found)")
      return nil
    }
    let itemPath = child(path, member.key)
    let item = member.value
    switch member.key {
    case "touches":
      return touches(item, itemPath, events: &events).map { .touches($0) }
    case "tap":
      events += 2
      return tapPoint(item, itemPath).map { .tap($0) }
    case "doubleTap":
      events += 4
      return tapPoint(item, itemPath).map { .doubleTap($0) }
    case "twoFingerTap":
      events += 4
      return tapPoint(item, itemPath).map { .twoFingerTap($0) }
    case "pinch":
      guard let pinch = pinch(item, itemPath, stampIDs: stampIDs) else { return nil }
      events += 2 * (pinch.steps + 2)
      return .pinch(pinch)
    case "drag":
      guard let drag = drag(item, itemPath, stampIDs: stampIDs) else { return nil }
      events += drag.steps + 2
      return .drag(drag)
    default:
      report(item, itemPath, unknownKey(member.key, in: Shapes.gesture, noun: "gesture"))
      return nil
    }
  }

  mutating func tapPoint(_ v: JSONValue, _ path: String) -> StampPoint? {
    guard let m = members(v, Shapes.tapAt, path) else { return nil }
    return point(m, "at", path)
  }

  mutating func pinch(_ v: JSONValue, _ path: String, stampIDs: Set<String>) -> PinchItem? {
    let before = diagnostics.count
    let shape = Shapes.pinch
    guard let m = members(v, shape, path) else { return nil }
    let target = self.target(m, "on", "at", path, stampIDs: stampIDs)
    let pinch = PinchItem(
      target: target ?? .point(.zero), scale: number(m, shape, "scale", path) ?? 1,
      rotation: number(m, shape, "rotation", path) ?? 0, duration: number(m, shape, "duration", path) ?? 0.5,
      steps: integer(m, shape, "steps", path) ?? 30)
    return diagnostics.count == before ? pinch : nil
  }

  mutating func drag(_ v: JSONValue, _ path: String, stampIDs: Set<String>) -> DragItem? {
    let before = diagnostics.count
    let shape = Shapes.drag
    guard let m = members(v, shape, path) else { return nil }
    let target = self.target(m, "on", "from", path, stampIDs: stampIDs)
    let drag = DragItem(
      from: target ?? .point(.zero), by: point(m, "by", path) ?? .zero,
      duration: number(m, shape, "duration", path) ?? 0.5, steps: integer(m, shape, "steps", path) ?? 20)
    return diagnostics.count == before ? drag : nil
  }

  /// A stamp named by `stampKey` (which must exist in the job) or a point under `pointKey`; `members` has
  /// already reported when neither or both are given.
  mutating func target(
    _ m: [JSONMember], _ stampKey: String, _ pointKey: String, _ path: String, stampIDs: Set<String>
  ) -> GestureTarget? {
    if let v = value(m, stampKey), let id = identifier(v, child(path, stampKey)) {
      guard stampIDs.contains(id) else {
        let known =
          stampIDs.isEmpty
          ? "this job has no stamps" : "this job's stamps: " + stampIDs.sorted().joined(separator: ", ")
        report(v, child(path, stampKey), "unknown stamp \"\(id)\" (\(known))")
        return nil
      }
      return .stamp(id)
    }
    return point(m, pointKey, path).map { .point($0) }
  }
}
