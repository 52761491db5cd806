/// The gesture engine for an app: fed touches as they arrive, it shows the stamps and the viewport the batch will
/// render, because the batch's `replay(_:)` runs every script through this same type.
///
/// Create it from the photo's size, the screen's size, the stamps and the settings; call `feed(_:)` with each frame
/// of touches (the events of one touchesBegan/Moved/Ended call, view points, `t` in seconds on one clock that never
/// goes back); read `stamps`, `viewport` and `latestEvents` (the phases of pinches and drags, and taps) after any
/// frame. A single tap is reported `doubleTapInterval` after it lifts, unless a second tap comes: call `advance(to:)`
/// once the clock passes `nextDeadline` to let it fire, and `endItem()` when a gesture item is over (it cancels
/// fingers still down and fires pending taps), as the batch does between items.
///
/// ```swift
/// var session = try StampSession(imageSize: StampSize(1000, 800), view: StampSize(500, 400), stamps: [star])
/// try session.feed(frame)
/// for event in session.latestEvents { print(event.kind, event.phase, event.scale) }  // pinch began 1.2
/// let placed = session.stamps[0]      // where to draw the star, in image pixels
/// ```
public struct StampSession: Sendable {
  var engine: GestureEngine
  private var check = TouchStreamCheck()
  private var item = 0
  private var itemEvents = 0
  private let view: StampSize
  private let keepsScript: Bool
  /// The ended items' touches, as `script` gives them, and the current item's so far.
  private var ended: [GestureItem] = []
  private var current: [TouchEvent] = []

  /// A session over a photo of `imageSize` pixels shown on a screen of `view` points (nil: the image itself, one
  /// point per pixel), with `stamps` placed in view points at the viewport the screen first shows; `history` says
  /// what it keeps of what it is fed (`gestures`, `script`).
  ///
  /// - Throws: `ReplayError.invalidScene` for a size, stamp or setting out of range, or a `.last` count below 0.
  public init(
    imageSize: StampSize, view: StampSize? = nil, stamps: [StampSpec] = [],
    settings: GestureSettings = GestureSettings(), history: SessionHistory = .all
  ) throws(ReplayError) {
    try self.init(SceneSpec(imageSize: imageSize, view: view, stamps: stamps, settings: settings), history: history)
  }

  /// A session over the scene of `spec`; its gesture script is not played (`replay(_:)` plays it).
  ///
  /// - Throws: `ReplayError.invalidScene` for a size, stamp or setting out of range, or a `.last` count below 0.
  public init(_ spec: SceneSpec, history: SessionHistory = .all) throws(ReplayError) {
    try SceneCheck.validate(spec)
    view = spec.view ?? spec.imageSize
    let viewport = Viewport(imageSize: spec.imageSize, viewSize: view, zoomRange: spec.settings.zoomRange)
    let stamps = spec.stamps.map { Stamp($0, in: viewport) }
    engine = GestureEngine(canvas: Canvas(viewport: viewport, stamps: stamps, settings: spec.settings))
    switch history {
    case .all:
      keepsScript = true
    case .last(let count):
      guard count >= 0 else {
        throw .invalidScene(path: "history", message: "must keep 0 or more gestures, not \(count)")
      }
      engine.log.limit = count
      keepsScript = false
    case .none:
      engine.log.limit = 0
      keepsScript = false
    }
  }

  /// The stamps now, in image pixels, in drawing order.
  public var stamps: [PlacedStamp] { engine.canvas.stamps.map(\.placed) }

  /// The viewport now: zoom and the part of the image the screen shows.
  public var viewport: ViewportState {
    let v = engine.canvas.viewport
    return ViewportState(zoom: v.zoom, visible: v.visible, viewSize: view)
  }

  /// The gestures recognized so far, in order: every one (`SessionHistory.all`), the latest n (`.last(n)`) or none.
  public var gestures: [RecognizedGesture] { engine.log.gestures }

  /// The gesture events of the latest `feed(_:)`, `advance(to:)` or `endItem()`, in order (none after a refused
  /// frame): each pinch and drag's `began`, `changed`, `ended` or `cancelled`, with its scale, rotation and
  /// translation so far, and each tap.
  public var latestEvents: [GestureEvent] { engine.log.latestEvents }

  /// When a pending single tap fires if no touch comes first, on the session's clock: call `advance(to:)` with a
  /// time past it (a touch beginning exactly then may still make a double tap). nil when nothing is pending. While a
  /// touch that may be a tap's second is down, the deadline is when it has been down longer than a tap lasts.
  public var nextDeadline: Double? { engine.taps.nextDeadline }

  /// The stamps, the viewport and the gestures now: what `replay(_:)` returns at the end of a script.
  public var result: SceneResult { SceneResult(stamps: stamps, viewport: viewport, gestures: gestures) }

  /// Applies one frame of touches and returns the gestures it recognized (a pinch or drag at its first effect, a
  /// double or two-finger tap when its last finger lifts, single taps that fell due before the frame); the phases of
  /// the frame's gestures are then in `latestEvents`.
  ///
  /// - Throws: `ReplayError.invalidTouches` when an event breaks the touch-stream rules of `TouchStream.validate`
  ///   (counted from the start of the gesture item); nothing of the frame is applied then.
  @discardableResult
  public mutating func feed(_ frame: [TouchEvent]) throws(ReplayError) -> [RecognizedGesture] {
    engine.log.clearLatest()
    var trial = check
    var issues: [TouchStreamIssue] = []
    for (offset, event) in frame.enumerated() {
      trial.check(event, index: itemEvents + offset) { issues.append($0) }
    }
    if !issues.isEmpty { throw .invalidTouches(item: item, issues: issues) }
    check = trial
    itemEvents += frame.count
    if keepsScript { current += frame }
    for event in frame { engine.handle(event, start: 0) }
    engine.endFrame()
    return engine.log.latestGestures
  }

  /// Lets the clock run to `time` with no new touch: fires the single taps due before it and returns them. Later
  /// frames may not come before `time`; a time that is not finite changes nothing.
  @discardableResult
  public mutating func advance(to time: Double) -> [RecognizedGesture] {
    engine.log.clearLatest()
    guard time.isFinite else { return [] }
    check.advance(to: time)
    engine.fireDueTaps(before: time)
    return engine.log.latestGestures
  }

  /// Ends a gesture item: fingers still down are cancelled and pending single taps fire (at their own time), so
  /// that nothing after this merges with what came before. Returns the gestures this recognized.
  @discardableResult
  public mutating func endItem() -> [RecognizedGesture] {
    engine.log.clearLatest()
    engine.finishItem()
    check.cancelAll()
    if !current.isEmpty { ended.append(Self.item(current)) }
    current.removeAll()
    item += 1
    itemEvents = 0
    return engine.log.latestGestures
  }

  /// What was fed, as a gesture script for a manifest: one `touches` item per item (each `endItem()` closes one),
  /// its `t` counted from its first event, as the batch counts it. Replaying it leaves the same stamps and viewport
  /// (the gestures' times are then on the job's clock, where items start 1 s after the previous one ends). Empty
  /// unless the session keeps `SessionHistory.all`.
  public var script: [GestureItem] { current.isEmpty ? ended : ended + [Self.item(current)] }

  /// The number of gestures, reports and touches the session holds, and the capacity of their storage: for the
  /// tests of a bounded history.
  var retained: (items: Int, touches: Int, capacity: Int) {
    let log = engine.log.retained
    let touches = ended.reduce(current.count) { sum, item in
      guard case .touches(let events) = item else { return sum }
      return sum + events.count
    }
    return (log.items, touches, log.capacity + ended.capacity + current.capacity)
  }

  private static func item(_ events: [TouchEvent]) -> GestureItem {
    let first = events[0].t
    if first == 0 { return .touches(events) }
    return .touches(events.map { TouchEvent(t: $0.t - first, id: $0.id, phase: $0.phase, location: $0.location) })
  }
}
