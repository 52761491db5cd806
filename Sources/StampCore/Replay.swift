/// The gap between two gesture items on the job's clock, in seconds: longer than any double-tap interval in use,
/// so that items never merge into one double tap.
public let gestureItemGap = 1.0

/// The most move frames a high-level gesture item (a pinch or a drag) may ask for; the manifest's bound too.
public let maxGestureSteps = 100_000

/// Replays a job's gestures and returns the final scene.
///
/// Stamps are placed from view coordinates at the viewport the screen first shows. The items play in order on one
/// clock, each starting `gestureItemGap` after the previous one's last event; a `touches` item's `t` is relative to
/// its start. High-level items become touches when they play and go through the same recognizers. At the end of
/// each item, fingers still down are cancelled and a pending single tap fires (at its own time).
///
/// - Throws: `ReplayError` for a scene or an item that cannot be replayed; nothing is half-applied, since the
///   result is returned only on success.
public func replay(_ spec: SceneSpec) throws -> SceneResult {
  var traces: [TouchTrace]?
  return try run(spec, recording: &traces)
}

/// Replays like `replay(_:)` and also returns where every finger went, in image pixels (each point mapped with
/// the viewport as it was when the finger got there), for pictures of what happened.
public func replayTracing(_ spec: SceneSpec) throws -> (SceneResult, [TouchTrace]) {
  var traces: [TouchTrace]? = []
  let result = try run(spec, recording: &traces)
  return (result, traces ?? [])
}

private func run(_ spec: SceneSpec, recording traces: inout [TouchTrace]?) throws -> SceneResult {
  try SceneCheck.validate(spec)
  let view = spec.view ?? spec.imageSize
  let viewport = Viewport(imageSize: spec.imageSize, viewSize: view, zoomRange: spec.settings.zoomRange)
  let stamps = spec.stamps.map { Stamp($0, in: viewport) }
  var engine = GestureEngine(canvas: Canvas(viewport: viewport, stamps: stamps, settings: spec.settings))
  var start = 0.0
  for (index, item) in spec.gestures.enumerated() {
    let events: [TouchEvent]
    if case .touches(let recorded) = item {
      let issues = TouchStream.validate(recorded)
      if !issues.isEmpty { throw ReplayError.invalidTouches(item: index, issues: issues) }
      events = recorded
    } else {
      events = try TouchSynthesizer.events(for: item, index: index, canvas: engine.canvas)
    }
    if traces != nil {
      for event in events {
        traces?.record(event, item: index, at: engine.canvas.viewport.toImage(event.location))
        engine.handle(event, start: start)
      }
    } else {
      for event in events { engine.handle(event, start: start) }
    }
    engine.finishItem()
    start += (events.last?.t ?? 0) + gestureItemGap
  }
  let canvas = engine.canvas
  let state = ViewportState(zoom: canvas.viewport.zoom, visible: canvas.viewport.visible, viewSize: view)
  let result = SceneResult(stamps: canvas.stamps.map(\.placed), viewport: state, gestures: engine.gestures)
  try SceneCheck.validate(result)
  return result
}
