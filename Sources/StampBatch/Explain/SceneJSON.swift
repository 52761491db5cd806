import StampCore
import StampManifest

/// A replayed scene as `explain` describes it: `{"id", "gestures", "stamps", "viewport"}` in image pixels.
///
/// Apart from the explainer (which needs the renderer to read headers) so that `scripts/fuzz` can build it without
/// libvips and check that what it prints is JSON.
enum SceneJSON {
  /// The job's entry in `explain`'s `jobs` list.
  static func describe(_ id: String, _ scene: SceneResult) -> JSONText {
    let gestures = scene.gestures.map { g -> JSONText in
      .object([
        ("kind", .string(g.kind.rawValue)), ("t", .rounded(g.t)), ("at", .array([.rounded(g.at.x), .rounded(g.at.y)])),
        ("target", .string(g.target ?? "viewport")),
      ])
    }
    let stamps = scene.stamps.map { s -> JSONText in
      .object([
        ("id", .string(s.id)), ("center", .array([.rounded(s.center.x), .rounded(s.center.y)])),
        ("size", .array([.rounded(s.size.width), .rounded(s.size.height)])), ("scale", .rounded(s.scale)),
        ("rotation", .rounded(s.rotation)),
      ])
    }
    let v = scene.viewport.visible
    let viewport: JSONText = .object([
      ("zoom", .rounded(scene.viewport.zoom)),
      (
        "visible",
        .array([.rounded(v.origin.x), .rounded(v.origin.y), .rounded(v.size.width), .rounded(v.size.height)])
      ),
    ])
    return .object([
      ("id", .string(id)), ("gestures", .array(gestures)), ("stamps", .array(stamps)), ("viewport", viewport),
    ])
  }

  /// The entry of a job that cannot be replayed.
  static func failure(_ id: String, _ message: String) -> JSONText {
    .object([("id", .string(id)), ("error", .string(message))])
  }
}
