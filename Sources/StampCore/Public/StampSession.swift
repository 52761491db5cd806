/// The gesture engine for an app: fed touches as they arrive, it shows the stamps and the viewport the batch will
/// render, because the batch's `replay(_:)` runs every script through this same type.
///
/// Create it from the photo's size, the screen's size, the stamps and the settings; call `feed(_:)` with each frame
/// of touches (the events of one touchesBegan/Moved/Ended call, `t` in seconds on one clock that never goes back);
/// read `stamps`, `viewport` and `gestures` after any frame. A single tap is reported `doubleTapInterval` after it
/// lifts, unless a second tap comes: call `advance(to:)` as time passes to let it fire, and `endItem()` when a
/// gesture item is over (it cancels fingers still down and fires pending taps), as the batch does between items.
///
/// ```swift
/// var session = try StampSession(imageSize: StampSize(1000, 800), view: StampSize(500, 400), stamps: [star])
/// let new = try session.feed(frame)   // the gestures this frame recognized
/// let placed = session.stamps[0]      // where to draw the star, in image pixels
/// ```
public struct StampSession: Sendable {
  var engine: GestureEngine
  private var check = TouchStreamCheck()
  private var item = 0
  private var itemEvents = 0
  private let view: StampSize
  /// The ended items' touches, as `script` gives them, and the current item's so far.
  private var ended: [GestureItem] = []
  private var current: [TouchEvent] = []

  /// A session over a photo of `imageSize` pixels shown on a screen of `view` points (nil: the image itself, one
  /// point per pixel), with `stamps` placed in view points at the viewport the screen first shows.
  ///
  /// - Throws: `ReplayError.invalidScene` for a size, stamp or setting out of range.
  public init(
    imageSize: StampSize, view: StampSize? = nil, stamps: [StampSpec] = [],
    settings: GestureSettings = GestureSettings()
  ) throws(ReplayError) {
    try self.init(SceneSpec(imageSize: imageSize, view: view, stamps: stamps, settings: settings))
  }

  /// A session over the scene of `spec`; its gesture script is not played (`replay(_:)` plays it).
  ///
  /// - Throws: `ReplayError.invalidScene` for a size, stamp or setting out of range.
  public init(_ spec: SceneSpec) throws(ReplayError) {
    try SceneCheck.validate(spec)
    view = spec.view ?? spec.imageSize
    let viewport = Viewport(imageSize: spec.imageSize, viewSize: view, zoomRange: spec.settings.zoomRange)
    let stamps = spec.stamps.map { Stamp($0, in: viewport) }
    engine = GestureEngine(canvas: Canvas(viewport: viewport, stamps: stamps, settings: spec.settings))
  }

  /// The stamps now, in image pixels, in drawing order.
  public var stamps: [PlacedStamp] { engine.canvas.stamps.map(\.placed) }

  /// The viewport now: zoom and the part of the image the screen shows.
  public var viewport: ViewportState {
    let v = engine.canvas.viewport
    return ViewportState(zoom: v.zoom, visible: v.visible, viewSize: view)
  }

  /// Every gesture recognized so far, in order.
  public var gestures: [RecognizedGesture] { engine.gestures }

  /// The stamps, the viewport and the gestures now: what `replay(_:)` returns at the end of a script.
  public var result: SceneResult { SceneResult(stamps: stamps, viewport: viewport, gestures: gestures) }

  /// Applies one frame of touches and returns the gestures it recognized (a pinch or drag at its first effect, a
  /// double or two-finger tap when its last finger lifts, single taps that fell due before the frame).
  ///
  /// - Throws: `ReplayError.invalidTouches` when an event breaks the touch-stream rules of `TouchStream.validate`
  ///   (counted from the start of the gesture item); nothing of the frame is applied then.
  @discardableResult
  public mutating func feed(_ frame: [TouchEvent]) throws(ReplayError) -> [RecognizedGesture] {
    var trial = check
    var issues: [TouchStreamIssue] = []
    for (offset, event) in frame.enumerated() {
      trial.check(event, index: itemEvents + offset) { issues.append($0) }
    }
    if !issues.isEmpty { throw .invalidTouches(item: item, issues: issues) }
    check = trial
    itemEvents += frame.count
    current += frame
    let before = engine.gestures.count
    for event in frame { engine.handle(event, start: 0) }
    engine.endFrame()
    return Array(engine.gestures[before...])
  }

  /// Lets the clock run to `time` with no new touch: fires the single taps due before it and returns them. Later
  /// frames may not come before `time`; a time that is not finite changes nothing.
  @discardableResult
  public mutating func advance(to time: Double) -> [RecognizedGesture] {
    guard time.isFinite else { return [] }
    let before = engine.gestures.count
    check.advance(to: time)
    engine.fireDueTaps(before: time)
    return Array(engine.gestures[before...])
  }

  /// Ends a gesture item: fingers still down are cancelled and pending single taps fire (at their own time), so
  /// that nothing after this merges with what came before. Returns the gestures this recognized.
  @discardableResult
  public mutating func endItem() -> [RecognizedGesture] {
    let before = engine.gestures.count
    engine.finishItem()
    check.cancelAll()
    if !current.isEmpty { ended.append(Self.item(current)) }
    current.removeAll()
    item += 1
    itemEvents = 0
    return Array(engine.gestures[before...])
  }

  /// What was fed, as a gesture script for a manifest: one `touches` item per item (each `endItem()` closes one),
  /// its `t` counted from its first event, as the batch counts it. Replaying it leaves the same stamps and viewport
  /// (the gestures' times are then on the job's clock, where items start 1 s after the previous one ends).
  public var script: [GestureItem] { current.isEmpty ? ended : ended + [Self.item(current)] }

  private static func item(_ events: [TouchEvent]) -> GestureItem {
    let first = events[0].t
    if first == 0 { return .touches(events) }
    return .touches(events.map { TouchEvent(t: $0.t - first, id: $0.id, phase: $0.phase, location: $0.location) })
  }

  /// The image point shown at view point `p`.
  public func toImage(_ p: StampPoint) -> StampPoint { engine.canvas.viewport.toImage(p) }

  /// The view point where image point `q` is shown.
  public func toView(_ q: StampPoint) -> StampPoint { engine.canvas.viewport.toView(q) }

  /// The id of the topmost stamp under view point `p`: the one a finger landing there would move.
  public func stamp(at p: StampPoint) -> String? { engine.canvas.hitTest(p).map { engine.canvas.stamps[$0].id } }
}
