import StampCore
import Testing

@Suite("GestureEvent: the phases of pinches and drags, with their scale, rotation and translation so far")
struct GestureEventTests {
  @Test("a pinch on a stamp: nothing inside the slop, began past it, changed to x1.5 turned, ended when a finger lifts")
  func pinchPhases() throws {
    var session = try starSession()
    // Fingers 100 points apart about (260, 200), the first on the star.
    try session.feed([touch(0, 1, .began, 210, 200), touch(0, 2, .began, 310, 200)])
    #expect(session.latestEvents.isEmpty)
    // Each finger 4 points out (108 apart), then exactly the pinch slop, 10 (120 apart): no pinch yet.
    try session.feed([touch(0.05, 1, .moved, 206, 200), touch(0.05, 2, .moved, 314, 200)])
    #expect(session.latestEvents.isEmpty)
    try session.feed([touch(0.1, 1, .moved, 200, 200), touch(0.1, 2, .moved, 320, 200)])
    #expect(session.latestEvents.isEmpty)
    // 12 points out, past the slop: began, 124 / 100 = x1.24 since the pair formed, at the midpoint (260, 200),
    // image (520, 400); the recognized pinch is the same moment and point.
    let began = try session.feed([touch(0.15, 1, .moved, 198, 200), touch(0.15, 2, .moved, 322, 200)])
    #expect(began == [RecognizedGesture(kind: .pinch, t: 0.15, at: StampPoint(520, 400), target: "star")])
    let first = try #require(session.latestEvents.first)
    #expect(session.latestEvents.count == 1)
    #expect(first.kind == .pinch && first.phase == .began && first.target == "star" && first.t == 0.15)
    #expect(close(first.scale, 1.24) && first.rotation == 0 && first.viewTranslation == .zero)
    #expect(first.imageLocation == StampPoint(520, 400))
    // The finger line becomes (120, 90) about the same midpoint: 150 long, x1.5; turned clockwise (y down) by
    // atan2(90, 120) = 36.869897645844021 degrees.
    try session.feed([touch(0.2, 1, .moved, 200, 155), touch(0.2, 2, .moved, 320, 245)])
    let changed = try #require(session.latestEvents.first)
    #expect(session.latestEvents.count == 1)
    #expect(changed.phase == .changed && changed.t == 0.2)
    #expect(changed.scale == 1.5)
    #expect(close(changed.rotation, 36.869897645844021))
    #expect(changed.viewTranslation == .zero)
    // The stamp took the same steps (scale 1 to 1.5 unclamped, rotation from 0).
    #expect(close(session.stamps[0].scale, 1.5, 1e-12))
    #expect(session.stamps[0].rotation == changed.rotation)
    // A finger lifts: the pinch ends with its values so far.
    try session.feed([touch(0.25, 2, .ended, 320, 245)])
    #expect(
      session.latestEvents == [
        GestureEvent(
          kind: .pinch, phase: .ended, target: "star", t: 0.25, scale: 1.5, rotation: changed.rotation,
          imageLocation: StampPoint(520, 400))
      ])
    // The other finger lifts without moving: no drag began, so nothing ends.
    try session.feed([touch(0.3, 1, .ended, 200, 155)])
    #expect(session.latestEvents.isEmpty)
    #expect(session.gestures.map(\.kind) == [.pinch])
  }

  @Test("a drag on a stamp: began past the tap slop with the motion inside it, changed, ended with its translation")
  func dragPhases() throws {
    func drag(_ phase: GesturePhase, _ t: Double, by d: StampPoint, image q: StampPoint) -> [GestureEvent] {
      [GestureEvent(kind: .drag, phase: phase, target: "star", t: t, viewTranslation: d, imageLocation: q)]
    }
    var session = try starSession()
    try session.feed([touch(0, 1, .began, 250, 200)])
    try session.feed([touch(0.05, 1, .moved, 256, 200)])
    #expect(session.latestEvents.isEmpty)
    // (20, 10) from where it landed: sqrt(500) = 22.4 points, past the tap slop of 10; image (270, 210) x 2.
    try session.feed([touch(0.1, 1, .moved, 270, 210)])
    #expect(session.latestEvents == drag(.began, 0.1, by: StampPoint(20, 10), image: StampPoint(540, 420)))
    try session.feed([touch(0.15, 1, .moved, 290, 230)])
    #expect(session.latestEvents == drag(.changed, 0.15, by: StampPoint(40, 30), image: StampPoint(580, 460)))
    // The stamp moved with the finger: (40, 30) points are (80, 60) pixels from (500, 400).
    #expect(session.stamps[0].center == StampPoint(580, 460))
    try session.feed([touch(0.2, 1, .ended, 290, 230)])
    #expect(session.latestEvents == drag(.ended, 0.2, by: StampPoint(40, 30), image: StampPoint(580, 460)))
  }

  @Test("ending the item with fingers down cancels the pinch under way; a cancelled touch cancels a drag")
  func cancelled() throws {
    var session = try starSession()
    try session.feed([touch(0, 1, .began, 210, 200), touch(0, 2, .began, 310, 200)])
    // 100 apart to 200 apart about the same midpoint: x2, each finger 50 out.
    try session.feed([touch(0.1, 1, .moved, 160, 200), touch(0.1, 2, .moved, 360, 200)])
    #expect(session.latestEvents.map(\.phase) == [.began])
    session.endItem()
    #expect(
      session.latestEvents == [
        GestureEvent(
          kind: .pinch, phase: .cancelled, target: "star", t: 0.1, scale: 2, imageLocation: StampPoint(520, 400))
      ])
    // On the background (view (50, 50)): a drag of (30, 0), then the system takes the touch away.
    try session.feed([touch(1, 3, .began, 50, 50)])
    try session.feed([touch(1.1, 3, .moved, 80, 50)])
    #expect(session.latestEvents.map(\.phase) == [.began] && session.latestEvents[0].target == nil)
    try session.feed([touch(1.2, 3, .cancelled, 80, 50)])
    #expect(session.latestEvents.map(\.phase) == [.cancelled])
    #expect(session.latestEvents[0].viewTranslation == StampPoint(30, 0))
    #expect(session.endItem().isEmpty && session.latestEvents.isEmpty)
  }

  @Test("taps are one ended event each, at the recognized gesture's time and point")
  func tapEvents() throws {
    var session = try starSession()
    try feedTap(&session, 0, 1, 100, 100)
    #expect(session.latestEvents.isEmpty)
    let fired = session.advance(to: 0.5)
    #expect(fired.count == 1)
    // Due at 0.1 + 0.35, at view (100, 100), image (200, 200).
    #expect(
      session.latestEvents == [
        GestureEvent(kind: .tap, phase: .ended, target: nil, t: 0.1 + 0.35, imageLocation: StampPoint(200, 200))
      ])
    // A refused frame reports nothing either.
    #expect(throws: ReplayError.self) { try session.feed([touch(0.7, 9, .moved, 10, 10)]) }
    #expect(session.latestEvents.isEmpty)
    #expect(session.advance(to: 0.8).isEmpty && session.latestEvents.isEmpty)
  }

  @Test("a pinch whose first finger lifts while a third is down goes on with the new pair, from where it was")
  func pinchCarriesOnWithANewPair() throws {
    var session = try StampSession(imageSize: StampSize(1000, 1000))
    let frames: [[TouchEvent]] = [
      [touch(0, 1, .began, 400, 500), touch(0, 2, .began, 600, 500)],
      [touch(0.1, 3, .began, 500, 700)],
      // 200 apart to 300: x1.5 about the same midpoint.
      [touch(0.2, 1, .moved, 350, 500), touch(0.2, 2, .moved, 650, 500)],
      // Finger 1 lifts: fingers 2 and 3 pinch on, (-150, 200) apart, 250 points, their midpoint (575, 600).
      [touch(0.3, 1, .ended, 350, 500)],
      // Finger 2 moves to (800, 300): (-300, 400) apart, 500 points, the same direction; midpoint (650, 500).
      [touch(0.4, 2, .moved, 800, 300)],
      [touch(0.5, 2, .ended, 800, 300), touch(0.5, 3, .ended, 500, 700)],
    ]
    var events: [[GestureEvent]] = []
    for frame in frames {
      let gestures = try session.feed(frame)
      events.append(session.latestEvents)
      // A recognized gesture is the began event of the same frame: same kind, time, point and target.
      let began = session.latestEvents.filter { $0.phase == .began }
      #expect(gestures.map(\.kind) == began.map(\.kind) && gestures.map(\.t) == began.map(\.t))
      #expect(gestures.map(\.at) == began.map(\.imageLocation) && gestures.map(\.target) == began.map(\.target))
    }
    #expect(events.map { $0.map(\.phase) } == [[], [], [.began], [], [.changed], [.ended]])
    #expect(events[2].first?.scale == 1.5 && events[2].first?.target == nil)
    // x1.5, then 250 to 500: x3 in all; no turn; the midpoint moved by (75, -100) with the second pair.
    let changed = try #require(events[4].first)
    #expect(changed.scale == 3 && changed.rotation == 0 && changed.viewTranslation == StampPoint(75, -100))
    #expect(events[5].first?.scale == 3 && events[5].first?.viewTranslation == StampPoint(75, -100))
    #expect(session.gestures.map(\.kind) == [.pinch])
  }
}
