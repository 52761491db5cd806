import StampCore
import StampManifest

extension Recording {
  /// The recent gestures and phases the state lists.
  static let recentGestures = 8

  /// What the page draws, as JSON: the viewport and how image pixels map to view points, the stamps (image pixels,
  /// and each centre's view point), the fingers down (view points), the recent gestures, and the counts. Numbers are
  /// written exactly, so the page shows the session's very values. `extra` members (the page's id, whether the
  /// manifest holds what is shown) come last.
  package var stateJSON: String { stateJSON(adding: []) }

  package func stateJSON(adding extra: [(String, JSONText)]) -> String {
    let result = session.result
    let origin = toView(StampPoint(0, 0))
    let unit = toView(StampPoint(1, 0))
    let settings = scene.settings
    let images = Dictionary(job.stamps.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
    let stamps = result.stamps.map { stamp -> JSONText in
      let at = toView(stamp.center)
      return .object([
        ("id", .string(stamp.id)), ("image", .literal(String(images[stamp.id] ?? 0))),
        ("center", .pair(stamp.center.x, stamp.center.y)),
        ("size", .pair(stamp.size.width, stamp.size.height)), ("scale", .number(stamp.scale)),
        ("rotation", .number(stamp.rotation)), ("at", .pair(at.x, at.y)),
      ])
    }
    let fingers = self.fingers.live.sorted { $0.key < $1.key }.map { id, p -> JSONText in
      .object([("id", .literal(String(id))), ("at", .pair(p.x, p.y))])
    }
    let gestures = result.gestures.suffix(Self.recentGestures).map { g -> JSONText in
      .object([
        ("kind", .string(g.kind.rawValue)), ("target", g.target.map(JSONText.string) ?? .literal("null")),
        ("t", .number(g.t)),
      ])
    }
    // The fingers' own scale and turn so far (a stamp's is its `scale` and `rotation`, clamped).
    let phases = recentEvents.map { e -> JSONText in
      .object([
        ("kind", .string(e.kind.rawValue)), ("phase", .string(e.phase.rawValue)),
        ("target", e.target.map(JSONText.string) ?? .literal("null")), ("scale", .number(e.scale)),
        ("rotation", .number(e.rotation)),
      ])
    }
    let selected = result.gestures.last { $0.target != nil && ($0.kind == .pinch || $0.kind == .drag) }?.target
    let visible = result.viewport.visible
    let state = JSONText.object(
      [
        ("job", .string(job.id)), ("frames", .literal(String(frames))), ("events", .literal(String(events))),
        ("items", .literal(String(items.count))), ("touching", .literal(touching ? "true" : "false")),
        ("capped", .literal(capped ? "true" : "false")), ("maxEvents", .literal(String(maxEvents))),
        ("itemDeadline", itemDeadline.map(JSONText.number) ?? .literal("null")),
        ("view", .pair(result.viewport.viewSize.width, result.viewport.viewSize.height)),
        ("transform", .array([.number(unit.x - origin.x), .number(origin.x), .number(origin.y)])),
        ("zoom", .number(result.viewport.zoom)),
        (
          "visible",
          .array([visible.origin.x, visible.origin.y, visible.size.width, visible.size.height].map(JSONText.number))
        ),
        ("scaleRange", .pair(settings.scaleRange.lowerBound, settings.scaleRange.upperBound)),
        ("zoomRange", .pair(settings.zoomRange.lowerBound, settings.zoomRange.upperBound)),
        // What a pinch on a stamp does, for the page's hint: move it with the fingers' midpoint too, or not.
        ("pinchMoves", .literal(settings.pinchMoves ? "true" : "false")),
        ("selected", selected.map(JSONText.string) ?? .literal("null")),
        ("stamps", .array(stamps)), ("fingers", .array(fingers)), ("gestures", .array(gestures)),
        ("phases", .array(phases)),
      ] + extra)
    return state.inline + "\n"
  }
}
