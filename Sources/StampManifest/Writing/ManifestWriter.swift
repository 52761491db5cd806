import StampCore

/// Writes manifests: what an app recorded (jobs, stamps, gestures, touches), as JSON the batch reads back to the
/// same jobs. Numbers are written exactly (`0.1` stays `0.1`, never `1e-05`), so the batch replays the very touches the
/// app's `StampSession` was fed; only values that differ from the defaults are written. Paths are written as the job
/// holds them: the batch reads a relative `base`, `image` or output path against the manifest's folder.
///
/// ```swift
/// let text = ManifestWriter().json(Manifest(jobs: [job]))    // a manifest.json
/// let line = ManifestWriter().jsonLine(job)                  // one line of a manifest.jsonl
/// ```
public struct ManifestWriter: Sendable {
  /// Round touch times to microseconds and positions to thousandths of a point, as `stampcam import` does (false:
  /// exact, so that a replay matches the live session to the last bit).
  public var roundsTouches: Bool

  /// A writer; touches exact unless `roundsTouches`.
  public init(roundsTouches: Bool = false) {
    self.roundsTouches = roundsTouches
  }

  /// A JSON manifest (`{"version": 1, "jobs": [...]}`) with a trailing newline; the jobs' `index` and `line` are
  /// not written (they come from where a job is in the file).
  public func json(_ manifest: Manifest) -> String {
    let root = JSONText.object([("version", .literal("1")), ("jobs", .array(manifest.jobs.map(job)))])
    return root.pretty() + "\n"
  }

  /// One job on one line, without a newline: a line of a JSON Lines manifest.
  public func jsonLine(_ job: JobEntry) -> String {
    self.job(job).inline
  }

  /// The `touches` gesture item holding `events`, on one line.
  public func touchesItem(_ events: [TouchEvent]) -> String {
    gesture(.touches(events)).inline
  }

  /// One touch sample: `{"t": 0.1, "id": 1, "phase": "moved", "x": 20, "y": 30}`.
  package func touch(_ event: TouchEvent) -> JSONText {
    let t = roundsTouches ? JSONText.literal(JSONNumber.text(event.t, places: 6)) : .number(event.t)
    let x =
      roundsTouches ? JSONText.literal(JSONNumber.text(event.location.x, places: 3)) : .number(event.location.x)
    let y =
      roundsTouches ? JSONText.literal(JSONNumber.text(event.location.y, places: 3)) : .number(event.location.y)
    return .object([
      ("t", t), ("id", .literal(String(event.id))), ("phase", .string(event.phase.rawValue)), ("x", x), ("y", y),
    ])
  }

  package func job(_ job: JobEntry) -> JSONText {
    var members: [(String, JSONText)] = [("id", .string(job.id))]
    switch job.photos?.source {
    case nil: members.append(("base", .string(job.base)))
    case .glob(let glob, let ignoreCase):
      members.append(
        ("photos", ignoreCase ? .object([("glob", .string(glob)), ("ignoreCase", .literal("true"))]) : .string(glob)))
    case .list(let list): members.append(("photos", .object([("list", .string(list))])))
    // Named on render's command line, never read from a manifest: written as what they are, for a person to read.
    case .paths(let paths): members.append(("photos", .array(paths.map { .string($0) })))
    }
    members.append(("output", .string(job.output)))
    if let viewOutput = job.viewOutput { members.append(("viewOutput", .string(viewOutput))) }
    if let view = job.view {
      var size: [(String, JSONText)] = [("width", .number(view.width)), ("height", .number(view.height))]
      if job.screenScale != 1 { size.append(("screenScale", .number(job.screenScale))) }
      members.append(("view", .object(size)))
    }
    if !job.stamps.isEmpty { members.append(("stamps", .array(job.stamps.map(stamp)))) }
    if !job.gestures.isEmpty { members.append(("gestures", .array(job.gestures.map(gesture)))) }
    let settings = self.settings(job.settings)
    if !settings.isEmpty { members.append(("settings", .object(settings))) }
    if job.overlay { members.append(("overlay", .literal("true"))) }
    return .object(members)
  }

  private func stamp(_ stamp: StampEntry) -> JSONText {
    var members: [(String, JSONText)] = [
      ("id", .string(stamp.id)), ("image", .string(stamp.image)),
      stamp.photoCenter.map { ("photoCenter", .pair($0.x, $0.y)) } ?? ("center", .pair(stamp.center.x, stamp.center.y)),
    ]
    if let width = stamp.width { members.append(("width", .number(width))) }
    if let width = stamp.photoWidth { members.append(("photoWidth", .number(width))) }
    if stamp.scale != 1 { members.append(("scale", .number(stamp.scale))) }
    if stamp.rotation != 0 { members.append(("rotation", .number(stamp.rotation))) }
    if stamp.locked { members.append(("locked", .literal("true"))) }
    return .object(members)
  }
}
