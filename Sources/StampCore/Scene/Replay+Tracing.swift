/// Replays like `replay(_:)` and also returns where every finger went, in image pixels (each point mapped with
/// the viewport as it was when the finger got there), for pictures of what happened.
package func replayTracing(_ spec: SceneSpec) throws(ReplayError) -> (SceneResult, [TouchTrace]) {
  var traces: [TouchTrace]? = []
  let result = try runReplay(spec, recording: &traces)
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

/// Plays `spec` (recording finger traces when `traces` is non-nil) and checks the final scene: what `replay(_:)`
/// and `replayTracing(_:)` share.
func runReplay(_ spec: SceneSpec, recording traces: inout [TouchTrace]?) throws(ReplayError) -> SceneResult {
  let result = try play(spec, recording: &traces).0.result
  try SceneCheck.validate(result)
  return result
}
