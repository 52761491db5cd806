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
  return try runReplay(spec, recording: &traces)
}
