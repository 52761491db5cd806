import StampCore
import Testing

@Suite("StampSession: the live engine an app feeds, and the one replay runs")
struct StampSessionTests {
  @Test("a pinch of x1.5 shows on the stamp after the frame that spreads the fingers, before they lift")
  func pinchFrameByFrame() throws {
    var session = try starSession()
    // The stamp covers view 200...300 x 150...250; image pixels are view points x 2.
    #expect(
      session.stamps == [
        PlacedStamp(id: "star", center: StampPoint(500, 400), size: StampSize(200, 200), scale: 1, rotation: 0)
      ])
    let down = try session.feed([touch(0, 1, .began, 225, 200), touch(0, 2, .began, 275, 200)])
    #expect(down.isEmpty)
    // 50 points apart, then 75: ratio 1.5; the midpoint (250, 200) stays, so the centre does not move.
    let spread = try session.feed([touch(0.05, 1, .moved, 212.5, 200), touch(0.05, 2, .moved, 287.5, 200)])
    #expect(spread == [RecognizedGesture(kind: .pinch, t: 0.05, at: StampPoint(500, 400), target: "star")])
    #expect(session.stamps[0].scale == 1.5)
    #expect(session.stamps[0].center == StampPoint(500, 400))
    try session.feed([touch(0.1, 1, .ended, 212.5, 200), touch(0.1, 2, .ended, 287.5, 200)])
    #expect(session.endItem().isEmpty)
    #expect(session.stamps[0].scale == 1.5)
    #expect(session.viewport.zoom == 1)
  }

  @Test("frames fed one by one leave exactly the scene replay leaves for the same touches")
  func agreesWithReplay() throws {
    let events = [
      // A drag on the stamp, a double tap on the background, a pinch on the background, a single tap.
      touch(0, 1, .began, 300, 400), touch(0.05, 1, .moved, 330, 400), touch(0.1, 1, .moved, 360, 420),
      touch(0.15, 1, .ended, 360, 420),
      touch(1, 2, .began, 700, 700), touch(1.05, 2, .ended, 700, 700),
      touch(1.2, 3, .began, 702, 700), touch(1.25, 3, .ended, 702, 700),
      touch(2, 4, .began, 400, 800), touch(2, 5, .began, 600, 800),
      touch(2.1, 4, .moved, 380, 790), touch(2.1, 5, .moved, 620, 810),
      touch(2.2, 4, .ended, 380, 790), touch(2.2, 5, .ended, 620, 810),
      touch(3, 6, .began, 100, 100), touch(3.05, 6, .ended, 100, 100),
    ]
    let stamp = square("s", at: StampPoint(300, 400))
    var session = try StampSession(imageSize: StampSize(1000, 1000), stamps: [stamp])
    var index = 0
    while index < events.count {
      let t = events[index].t
      let frame = events[index...].prefix { $0.t == t }
      try session.feed(Array(frame))
      index += frame.count
    }
    session.endItem()
    let replayed = try replay(plainScene(stamps: [stamp], [.touches(events)]))
    #expect(session.result == replayed)
    #expect(replayed.gestures.map(\.kind) == [.drag, .doubleTap, .pinch, .tap])
  }

  @Test("the script of what was fed, one touches item per item, replays to the same stamps and viewport")
  func scriptReplays() throws {
    var session = try starSession()
    let drag = [
      [touch(0, 1, .began, 250, 200)], [touch(0.1, 1, .moved, 270, 210)], [touch(0.2, 1, .ended, 270, 210)],
    ]
    for frame in drag { try session.feed(frame) }
    session.endItem()
    let pinch = [
      [touch(5, 1, .began, 250, 205), touch(5, 2, .began, 290, 215)],
      [touch(5.1, 1, .moved, 230, 200), touch(5.1, 2, .moved, 310, 230)],
    ]
    for frame in pinch { try session.feed(frame) }
    let script = session.script
    #expect(script.count == 2)
    #expect(script[0] == .touches(drag.flatMap { $0 }))
    // The second item counts from its first event: 5 becomes 0.
    guard case .touches(let second) = script[1] else { throw ScriptIsNotTouches() }
    #expect(second.map(\.t) == [0, 0, 5.1 - 5, 5.1 - 5])
    session.endItem()
    let stamp = StampSpec(id: "star", center: StampPoint(250, 200), width: 100, pixelSize: StampSize(64, 64))
    let spec = SceneSpec(imageSize: StampSize(1000, 800), view: StampSize(500, 400), stamps: [stamp], gestures: script)
    let replayed = try replay(spec)
    #expect(replayed.stamps == session.stamps)
    #expect(replayed.viewport == session.viewport)
    #expect(replayed.gestures.map(\.kind) == [.drag, .pinch])
    // The drag moved the centre by (20, 10) points, (40, 20) pixels; the finger line went from (40, 10) to (80, 30):
    // x sqrt(7300 / 1700) = x2.07, clamped to 2, turned by atan(400 / 3500) = 6.5198 degrees.
    #expect(session.stamps[0].center == StampPoint(540, 420))
    #expect(session.stamps[0].scale == 2)
    #expect(close(session.stamps[0].rotation, 6.519801751656986, 1e-9))
  }

  struct ScriptIsNotTouches: Error {}

  @Test("a frame that breaks the touch rules is refused whole, and the session goes on")
  func badFrameIsRefused() throws {
    var session = try starSession()
    try session.feed([touch(0, 1, .began, 225, 200), touch(0, 2, .began, 275, 200)])
    let bad = [touch(0.05, 1, .moved, 212.5, 200), touch(0.05, 9, .moved, 287.5, 200)]
    #expect(
      throws: ReplayError.invalidTouches(
        item: 0,
        issues: [
          TouchStreamIssue(index: 3, field: "phase", message: "touch 9 moves before it begins")
        ])
    ) { try session.feed(bad) }
    #expect(session.stamps[0].scale == 1)
    #expect(throws: ReplayError.self) { try session.feed([touch(-1, 1, .moved, 0, 0)]) }
    try session.feed([touch(0.05, 1, .moved, 212.5, 200), touch(0.05, 2, .moved, 287.5, 200)])
    #expect(session.stamps[0].scale == 1.5)
  }

  @Test("ending an item cancels the fingers still down: they must touch down again")
  func endItemCancelsFingers() throws {
    var session = try starSession()
    try session.feed([touch(0, 1, .began, 250, 200)])
    try session.feed([touch(0.1, 1, .moved, 270, 200)])
    // A drag of 20 points on a fit of 0.5 moves the centre by 40 pixels.
    #expect(session.stamps[0].center == StampPoint(540, 400))
    session.endItem()
    #expect(
      throws: ReplayError.invalidTouches(
        item: 1,
        issues: [
          TouchStreamIssue(index: 0, field: "phase", message: "touch 1 moves before it begins")
        ])
    ) { try session.feed([touch(0.2, 1, .moved, 290, 200)]) }
    try session.feed([touch(0.2, 1, .began, 290, 200)])
  }

  @Test("view points and image pixels map both ways, and a hit test names the stamp under a finger")
  func mapping() throws {
    let session = try starSession()
    #expect(session.toImage(viewPoint: StampPoint(250, 200)) == StampPoint(500, 400))
    #expect(session.toView(imagePoint: StampPoint(1000, 0)) == StampPoint(500, 0))
    #expect(session.stamp(atViewPoint: StampPoint(299, 249)) == "star")
    #expect(session.stamp(atViewPoint: StampPoint(301, 200)) == nil)
    #expect(session.viewport.visible == StampRect(x: 0, y: 0, width: 1000, height: 800))
  }

  @Test("a scene out of range is refused when the session is made")
  func badScene() {
    #expect(throws: ReplayError.invalidScene(path: "imageSize.width", message: "must be a positive number, not 0.00")) {
      try StampSession(imageSize: StampSize(0, 10))
    }
  }
}
