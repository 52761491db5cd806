/// The gap between two gesture items on the job's clock, in seconds: longer than any double-tap interval in use,
/// so that items never merge into one double tap.
public let gestureItemGap = 1.0

/// The most move frames a high-level gesture item (a pinch or a drag) may ask for; the manifest's bound too.
public let maxGestureSteps = 100_000

/// Replays a job's gestures through a `StampSession` and returns the final scene.
///
/// Stamps are placed from view coordinates at the viewport the screen first shows. The items play in order on one
/// clock, each starting `gestureItemGap` after the previous one's last event; a `touches` item's `t` is relative to
/// its start. High-level items become touches when they play and go through the same recognizers. At the end of
/// each item, fingers still down are cancelled and a pending single tap fires (at its own time).
///
/// - Throws: `ReplayError` for a scene or an item that cannot be replayed; nothing is half-applied, since the
///   result is returned only on success.
public func replay(_ spec: SceneSpec) throws(ReplayError) -> SceneResult {
  var traces: [TouchTrace]?
  return try run(spec, recording: &traces)
}

/// Replays like `replay(_:)` and also returns where every finger went, in image pixels (each point mapped with
/// the viewport as it was when the finger got there), for pictures of what happened.
package func replayTracing(_ spec: SceneSpec) throws(ReplayError) -> (SceneResult, [TouchTrace]) {
  var traces: [TouchTrace]? = []
  let result = try run(spec, recording: &traces)
  return (result, traces ?? [])
}

/// A session that has played the gestures of `spec` as `replay(_:)` plays them, and the time on its clock where a
/// next item starts: for an app that goes on from a script (`stampcam record`), in the state the batch reaches.
///
/// - Throws: `ReplayError` for a scene or an item that cannot be replayed.
package func replayedSession(_ spec: SceneSpec) throws(ReplayError) -> (session: StampSession, next: Double) {
  var traces: [TouchTrace]?
  var (session, next) = try play(spec, recording: &traces)
  // The app reads what each of its own calls reports from here on.
  session.engine.log.reportsLatest = true
  return (session, next)
}

private func play(
  _ spec: SceneSpec, recording traces: inout [TouchTrace]?
) throws(ReplayError) -> (StampSession, Double) {
  var session = try StampSession(spec)
  // The batch reads only the final scene and its gestures, not each call's.
  session.engine.log.reportsLatest = false
  var start = 0.0
  for (index, item) in spec.gestures.enumerated() {
    let events = try session.events(for: item, index: index)
    session.play(events, item: index, start: start, recording: &traces)
    session.endItem()
    start += (events.last?.t ?? 0) + gestureItemGap
  }
  return (session, start)
}

private func run(_ spec: SceneSpec, recording traces: inout [TouchTrace]?) throws(ReplayError) -> SceneResult {
  let result = try play(spec, recording: &traces).0.result
  try SceneCheck.validate(result)
  return result
}
