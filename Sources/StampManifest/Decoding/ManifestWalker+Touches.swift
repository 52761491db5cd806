import StampCore

/// Recorded traces: the one part of a manifest that can hold a million values, so it is decoded without building a
/// path or a set per event.
extension ManifestWalker {
  private static let tBounds = TouchItemCheck.tBounds
  private static let idBounds = TouchItemCheck.idBounds
  private static let phases = TouchPhase.allCases.map(\.rawValue)

  mutating func touches(_ v: JSONValue, _ path: String, events: inout Int) -> [TouchEvent]? {
    guard case .array(let items) = v.kind else {
      report(v, path, "expected an array, found \(v.typeName)")
      return nil
    }
    events += items.count
    guard events <= limits.maxTouchEvents else { return nil }
    let before = diagnostics.count
    var trace: [TouchEvent] = []
    trace.reserveCapacity(items.count)
    for (i, item) in items.enumerated() {
      if let event = touch(item, path, i) { trace.append(event) }
    }
    guard diagnostics.count == before else { return nil }
    for issue in TouchStream.validate(trace) {
      let at = items.indices.contains(issue.index) ? items[issue.index] : v
      report(at, element(path, issue.index) + (issue.field.map { "." + $0 } ?? ""), issue.message)
    }
    return diagnostics.count == before ? trace : nil
  }

  /// One `{t, id, phase, x, y}`.
  mutating func touch(_ v: JSONValue, _ path: String, _ i: Int) -> TouchEvent? {
    guard case .object(let m) = v.kind else {
      report(v, element(path, i), "expected an object, found \(v.typeName)")
      return nil
    }
    var t: Double?
    var id: Int?
    var phase: TouchPhase?
    var x: Double?
    var y: Double?
    var seen: UInt8 = 0
    for member in m {
      let bit: UInt8
      let w = member.value
      switch member.key {
      case "t":
        bit = 1
        t = number(w, Self.tBounds, child(element(path, i), "t"))
      case "id":
        bit = 2
        id = integer(w, Self.idBounds, child(element(path, i), "id"))
      case "phase":
        bit = 4
        phase = choice(w, Self.phases, "phase", child(element(path, i), "phase")).flatMap(TouchPhase.init)
      case "x":
        bit = 8
        x = number(w, TouchItemCheck.xyBounds, child(element(path, i), "x"))
      case "y":
        bit = 16
        y = number(w, TouchItemCheck.xyBounds, child(element(path, i), "y"))
      default:
        report(w, child(element(path, i), member.key), unknownKey(member.key, in: Shapes.touch))
        continue
      }
      if seen & bit != 0 { report(w, child(element(path, i), member.key), "duplicate key") }
      seen |= bit
    }
    if seen != 31 {
      for (k, name) in Shapes.touch.keys.enumerated() where seen & (1 << k) == 0 {
        report(v, element(path, i), "missing key \"\(name)\"")
      }
      return nil
    }
    guard let t, let id, let phase, let x, let y else { return nil }
    return TouchEvent(t: t, id: id, phase: phase, location: StampPoint(x, y))
  }
}
