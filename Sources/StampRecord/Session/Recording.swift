import StampCore
import StampManifest

/// One page's recording: the job's scene, a `StampSession` that has replayed the job's script and is fed the
/// page's touches, and the gesture items so far (the job's own, then one `touches` item per recorded gesture).
///
/// Times: the page stamps each frame with its own clock (seconds). A recorded item starts at `clock` on the
/// session's clock, where the batch's replay would start it (`gestureItemGap` after the previous item's last
/// touch), and its frames keep the page's spacing. An item ends once no finger is down and no single tap is pending
/// (the session's `nextDeadline`): at once after a drag or a pinch, after the deadline when a tap may yet become a
/// double tap.
package struct Recording: Sendable {
  /// The most touch events a page may feed by default, so that a page left running cannot fill memory.
  package static let defaultMaxEvents = 200_000

  /// The job as the manifest gave it (its gestures the script the page started from).
  package let job: JobEntry
  let scene: SceneSpec
  /// The items before the ones the session has been fed live.
  private(set) var replayed: [GestureItem]
  private(set) var session: StampSession
  /// Where the open item started on the session's clock, or where the next starts.
  private var clock: Double
  /// The open item: the page's time at its first frame, and the session time of its last event.
  private var open: (pageStart: Double, last: Double)?
  var fingers = Fingers()
  /// The latest phases of pinches and drags, and the taps, newest last (a run of `changed` kept as its latest).
  private(set) var recentEvents: [GestureEvent] = []
  /// Frames and touch events fed since the page opened.
  package internal(set) var frames = 0
  package internal(set) var events = 0
  /// The most touch events this page may feed; past it only lifts and cancels are taken.
  package let maxEvents: Int
  /// Whether a frame was refused, or cut down to its lifts, for `maxEvents`.
  package private(set) var capped = false
  /// How many of `items` are the job's own, from the manifest: their times are kept as written.
  private var ownItems: Int

  /// A recording of `job`, whose photo is `imageSize` pixels and whose stamps' images have the pixel sizes given by
  /// their paths.
  ///
  /// - Throws: `RecordError.manifest` when its script cannot be replayed.
  package init(
    job: JobEntry, imageSize: StampSize, stampSizes: [StampSize], maxEvents: Int = Recording.defaultMaxEvents
  ) throws(RecordError) {
    self.job = job
    self.maxEvents = maxEvents
    ownItems = job.gestures.count
    do {
      scene = try job.scene(imageSize: imageSize, stampPixelSizes: stampSizes.map(Optional.some))
      (session, clock) = try replayedSession(scene)
    } catch {
      throw .manifest("job \"\(job.id)\": \(error)")
    }
    replayed = job.gestures
  }

  /// Every gesture item: the job's, then the recorded ones (the one in progress included).
  package var items: [GestureItem] { replayed + session.script }

  /// The session's stamps, viewport and gestures.
  package var result: SceneResult { session.result }

  /// Whether a finger (or the mouse) is down.
  var touching: Bool { !fingers.live.isEmpty }

  /// Feeds one frame of the page's input at page time `time`: closes the previous item when it is over, then feeds
  /// the touches the input makes (none when it changes nothing). Past `maxEvents`, only the frame's lifts and
  /// cancels are fed (a finger must never stay down for good) and `capped` is set.
  ///
  /// - Throws: `RecordError.manifest` when the touches break the touch-stream rules, or pass `maxEvents` with
  ///   nothing to lift; nothing of the frame is applied then.
  package mutating func feed(_ input: [PageInput], at time: Double) throws(RecordError) {
    closeItemIfOver(at: time)
    var trial = fingers
    var touches: [(id: Int, phase: TouchPhase, location: StampPoint)] = []
    for one in input { touches += trial.touches(for: one) }
    guard !touches.isEmpty else { return }
    if events + touches.count > maxEvents {
      capped = true
      trial = fingers
      touches = []
      for one in input where one.ends { touches += trial.touches(for: one) }
      guard !touches.isEmpty else {
        throw .manifest(
          "this page has fed \(events) touch events, the most one page may (\(maxEvents)): lift your fingers, "
            + "Save, and start stampcam record again to record more")
      }
    }
    let start = open ?? (pageStart: time, last: clock)
    let t = max(clock + max(time - start.pageStart, 0), start.last)
    let frame = touches.map { TouchEvent(t: t, id: $0.id, phase: $0.phase, location: $0.location) }
    do {
      try session.feed(frame)
    } catch {
      throw .manifest("the touches were refused: \(error)")
    }
    fingers = trial
    open = (start.pageStart, t)
    frames += 1
    events += frame.count
    note(session.latestEvents)
    if !touching && session.nextDeadline == nil { closeItem() }
  }

  /// The page's time after which the open item is over: when its pending single tap fires. Nil when no item is open
  /// or a finger is down.
  package var itemDeadline: Double? {
    guard let open, !touching, let deadline = session.nextDeadline else { return nil }
    return open.pageStart + (deadline - clock)
  }

  /// Ends the open item when it is over at page time `time` (its pending tap fires, at its own time), so that the
  /// next touch starts a new one.
  package mutating func closeItemIfOver(at time: Double) {
    guard let deadline = itemDeadline, time > deadline else { return }
    closeItem()
  }

  private mutating func closeItem() {
    guard let open else { return }
    // The pending tap fires just past its deadline, where `endItem()` alone would fire it too, but this way it is
    // reported (as the batch's replay does not need).
    var advanced = open.last
    if let deadline = session.nextDeadline {
      advanced = deadline.nextUp
      session.advance(to: advanced)
      note(session.latestEvents)
    }
    session.endItem()
    note(session.latestEvents)
    clock = max(open.last + gestureItemGap, advanced)
    self.open = nil
  }

  /// Keeps `new` among the recent events, a `changed` replacing the `changed` of the same gesture before it.
  private mutating func note(_ new: [GestureEvent]) {
    for event in new {
      if event.phase == .changed, let last = recentEvents.last, last.phase == .changed, last.kind == event.kind,
        last.target == event.target
      {
        recentEvents.removeLast()
      }
      recentEvents.append(event)
    }
    if recentEvents.count > Self.recentGestures { recentEvents.removeFirst(recentEvents.count - Self.recentGestures) }
  }

  /// Drops the last gesture item (the one in progress, if any) and replays the rest as the batch would.
  ///
  /// - Returns: false when there is no item to drop or a finger is down.
  package mutating func undo() -> Bool {
    guard !touching else { return false }
    var items = self.items
    guard !items.isEmpty else { return false }
    items.removeLast()
    var spec = scene
    spec.gestures = items
    // The items replayed already once, so this cannot fail; keep the state as it was if it somehow does.
    guard let (session, next) = try? replayedSession(spec) else { return false }
    self.session = session
    clock = next
    replayed = items
    ownItems = min(ownItems, items.count)
    open = nil
    recentEvents = []
    return true
  }

  /// The job with its script as recorded so far, ready for the manifest or the renderer: the recorded items' times
  /// rounded to the microsecond (the page's clock is no finer), so that they are written as short decimals
  /// (`0.016`, not `0.016000000000000014`), and read back as the very values saved.
  package var recordedJob: JobEntry {
    var job = self.job
    job.gestures = items.enumerated().map { index, item in
      guard index >= ownItems, case .touches(let events) = item else { return item }
      return .touches(
        events.map { TouchEvent(t: Self.microseconds($0.t), id: $0.id, phase: $0.phase, location: $0.location) })
    }
    return job
  }

  /// `t` rounded to the microsecond: the double nearest the decimal with at most six places (an integer divided by
  /// 10^6 is correctly rounded), whose shortest text is that decimal.
  static func microseconds(_ t: Double) -> Double {
    guard abs(t) < 1e12 else { return t }
    return (t * 1e6).rounded() / 1e6
  }

  /// The view point where image point `q` is shown now.
  func toView(_ q: StampPoint) -> StampPoint { session.toView(imagePoint: q) }
}
