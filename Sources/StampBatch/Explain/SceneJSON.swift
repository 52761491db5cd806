import StampCore

/// A replayed scene as `explain` describes it: `{"id", "gestures", "stamps", "viewport"}` in image pixels.
///
/// Apart from the explainer (which needs the renderer to read headers) so that `scripts/fuzz` can build it without
/// libvips and check that what it prints is JSON.
enum SceneJSON {
  /// The job's entry in `explain`'s `jobs` list.
  static func describe(_ id: String, _ scene: SceneResult) -> JSON.Value {
    let gestures = scene.gestures.map { g -> JSON.Value in
      .object([
        ("kind", .string(g.kind.rawValue)), ("t", .number(g.t)), ("at", .array([.number(g.at.x), .number(g.at.y)])),
        ("target", .string(g.target ?? "viewport")),
      ])
    }
    let stamps = scene.stamps.map { s -> JSON.Value in
      .object([
        ("id", .string(s.id)), ("center", .array([.number(s.center.x), .number(s.center.y)])),
        ("size", .array([.number(s.size.width), .number(s.size.height)])), ("scale", .number(s.scale)),
        ("rotation", .number(s.rotation)),
      ])
    }
    let v = scene.viewport.visible
    let viewport: JSON.Value = .object([
      ("zoom", .number(scene.viewport.zoom)),
      ("visible", .array([.number(v.origin.x), .number(v.origin.y), .number(v.size.width), .number(v.size.height)])),
    ])
    return .object([
      ("id", .string(id)), ("gestures", .array(gestures)), ("stamps", .array(stamps)), ("viewport", viewport),
    ])
  }

  /// The entry of a job that cannot be replayed.
  static func failure(_ id: String, _ message: String) -> JSON.Value {
    .object([("id", .string(id)), ("error", .string(message))])
  }
}
