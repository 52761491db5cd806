import StampCore
import StampManifest
import StampRender

/// `stampcam explain`: replays each job from headers alone and describes the outcome as JSON.
public struct Explainer: Sendable {
  /// Creates an explainer.
  public init() {}

  /// The JSON document `{"jobs": [...]}` for `jobs`, one job per line.
  public func explain(_ jobs: [JobEntry]) throws -> String {
    let renderer = JobRenderer(renderer: Renderer(), paths: nil)
    var lines: [String] = []
    for job in jobs {
      // Stamp sizes from their headers too: explaining decodes no pixels at all.
      let (scene, _) = try renderer.replay(job) { try ImageHeader.read($0).uprightSize }
      lines.append(JSON.render(Self.describe(job.id, scene)))
    }
    return "{\"jobs\": [\n" + lines.map { "  " + $0 }.joined(separator: ",\n") + "\n]}"
  }

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
}
