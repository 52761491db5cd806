import StampCore
import StampManifest
import Testing

@testable import StampRecord

@Suite("Recording: the page's frames fed to a StampSession, items closed, undone, and what the batch replays")
struct RecordingTests {
  /// A 1000 x 800 photo on a 500 x 400 screen (fit 0.5), one 100-pixel stamp at view point (100, 100).
  static func recording(gestures: [GestureItem] = []) throws -> Recording {
    let job = JobEntry(
      id: "j", base: "p.jpg", output: "j.jpg", view: StampSize(500, 400),
      stamps: [StampEntry(id: "s", image: "s.png", center: StampPoint(100, 100))], gestures: gestures)
    return try Recording(job: job, imageSize: StampSize(1000, 800), stampSizes: [StampSize(100, 100)])
  }

  static func drag(_ r: inout Recording, from p: StampPoint, by d: StampPoint, at t: Double) throws {
    try r.feed([.touch(pointer: 7, phase: .began, at: p)], at: t)
    try r.feed([.touch(pointer: 7, phase: .moved, at: StampPoint(p.x + d.x / 2, p.y + d.y / 2))], at: t + 0.05)
    try r.feed([.touch(pointer: 7, phase: .moved, at: StampPoint(p.x + d.x, p.y + d.y))], at: t + 0.1)
    try r.feed([.touch(pointer: 7, phase: .ended, at: StampPoint(p.x + d.x, p.y + d.y))], at: t + 0.15)
  }

  @Test func aDragMovesTheStampByTheFingersMotionInImagePixelsAndTheBatchReplaysIt() throws {
    var r = try Self.recording()
    try Self.drag(&r, from: StampPoint(100, 100), by: StampPoint(40, -20), at: 10)
    // View (100, 100) is image (200, 200) at fit 0.5; (40, -20) points are (80, -40) pixels.
    #expect(r.result.stamps[0].center == StampPoint(280, 160))
    #expect(r.items.count == 1 && r.frames == 4 && r.events == 4)
    var spec = try r.job.scene(imageSize: StampSize(1000, 800), stampPixelSizes: ["s.png": StampSize(100, 100)])
    spec.gestures = r.items
    #expect(try replay(spec).stamps == r.result.stamps)
  }

  static func tap(_ r: inout Recording, at p: StampPoint, time: Double) throws {
    try r.feed([.touch(pointer: 3, phase: .began, at: p)], at: time)
    try r.feed([.touch(pointer: 3, phase: .ended, at: p)], at: time + 0.05)
  }

  @Test func anItemEndsWhenTheFingersLiftUnlessATapIsPendingThenAtItsDeadline() throws {
    var r = try Self.recording()
    try Self.drag(&r, from: StampPoint(100, 100), by: StampPoint(40, 0), at: 10)
    #expect(r.itemDeadline == nil)
    try Self.drag(&r, from: StampPoint(120, 100), by: StampPoint(40, 0), at: 10.2)
    #expect(r.items.count == 2)
    #expect(r.result.stamps[0].center == StampPoint(200 + 160, 200))
    // A tap lifted at page time 20.05 may become a double tap until 20.05 + 0.35.
    try Self.tap(&r, at: StampPoint(300, 300), time: 20)
    let deadline = try #require(r.itemDeadline)
    #expect(abs(deadline - 20.4) < 1e-9)
    r.closeItemIfOver(at: 20.3)
    #expect(r.itemDeadline != nil)
    // The second tap of a double tap, 0.2 s later, is in the same item: the viewport zooms (toggle: to 4).
    try Self.tap(&r, at: StampPoint(300, 300), time: 20.25)
    #expect(r.result.viewport.zoom == 4 && r.items.count == 3 && r.itemDeadline == nil)
    // A lone tap, closed after its deadline: reported as a tap, ended.
    try Self.tap(&r, at: StampPoint(300, 300), time: 30)
    r.closeItemIfOver(at: 30.5)
    #expect(r.itemDeadline == nil && r.items.count == 4)
    #expect(
      r.recentEvents.last?.kind == .tap && r.recentEvents.last?.phase == .ended,
      "\(r.recentEvents) \(r.result.gestures)")
  }

  @Test func undoDropsTheLastItemAndReplaysTheRest() throws {
    var r = try Self.recording(gestures: [.drag(DragItem(from: .stamp("s"), by: StampPoint(10, 0)))])
    #expect(r.result.stamps[0].center == StampPoint(220, 200))
    try Self.drag(&r, from: StampPoint(110, 100), by: StampPoint(0, 30), at: 3)
    #expect(r.result.stamps[0].center == StampPoint(220, 260))
    let first = r.undo()
    #expect(first && r.result.stamps[0].center == StampPoint(220, 200) && r.items.count == 1)
    let second = r.undo()
    #expect(second && r.result.stamps[0].center == StampPoint(200, 200) && r.items.isEmpty)
    let third = r.undo()
    #expect(!third)
  }

  @Test func touchesThatBreakTheStreamRulesAreRefusedAndChangeNothing() throws {
    var r = try Self.recording()
    try r.feed([.touch(pointer: 1, phase: .began, at: StampPoint(100, 100))], at: 1)
    #expect(throws: RecordError.self) {
      try r.feed([.touch(pointer: 2, phase: .began, at: StampPoint(.nan, 100))], at: 1.1)
    }
    #expect(r.frames == 1 && r.fingers.live.count == 1)
  }
}

extension RecordingTests {
  /// At the event cap with a finger down: moves are refused, but the lift is taken, the item closes, Undo works,
  /// and the state says the cap was reached.
  @Test func atTheEventCapALiftIsStillTakenAndUndoWorks() throws {
    let job = JobEntry(
      id: "j", base: "p.jpg", output: "j.jpg", view: StampSize(500, 400),
      stamps: [StampEntry(id: "s", image: "s.png", center: StampPoint(100, 100))])
    var r = try Recording(job: job, imageSize: StampSize(1000, 800), stampSizes: [StampSize(100, 100)], maxEvents: 3)
    try r.feed([.touch(pointer: 7, phase: .began, at: StampPoint(100, 100))], at: 1)
    try r.feed([.touch(pointer: 7, phase: .moved, at: StampPoint(120, 100))], at: 1.05)
    try r.feed([.touch(pointer: 7, phase: .moved, at: StampPoint(140, 100))], at: 1.1)
    #expect(r.events == 3 && !r.capped)
    #expect(throws: RecordError.self) {
      try r.feed([.touch(pointer: 7, phase: .moved, at: StampPoint(160, 100))], at: 1.15)
    }
    #expect(r.capped && r.touching)
    // The lift, with a move in the same frame: the move is dropped, the lift taken.
    try r.feed(
      [
        .touch(pointer: 7, phase: .moved, at: StampPoint(170, 100)),
        .touch(pointer: 7, phase: .ended, at: StampPoint(140, 100)),
      ], at: 1.2)
    #expect(!r.touching && r.events == 4 && r.items.count == 1)
    // The drag moved the stamp by 40 points, 80 pixels at fit 0.5; Undo takes it back.
    #expect(r.result.stamps[0].center == StampPoint(280, 200))
    let undone = r.undo()
    #expect(undone && r.result.stamps[0].center == StampPoint(200, 200) && r.items.isEmpty)
    #expect(r.stateJSON.contains("\"capped\": true"))
    // No new finger lands past the cap.
    #expect(throws: RecordError.self) { try r.feed([.touch(pointer: 8, phase: .began, at: StampPoint(10, 10))], at: 3) }
    #expect(!r.touching)
    // A cancel is taken past the cap, as a reloaded page sends it.
    var mouse = try Recording(
      job: job, imageSize: StampSize(1000, 800), stampSizes: [StampSize(100, 100)], maxEvents: 1)
    try mouse.feed([.mouse(.down, at: StampPoint(10, 10), shift: false)], at: 1)
    #expect(throws: RecordError.self) { try mouse.feed([.mouse(.move, at: StampPoint(30, 10), shift: false)], at: 1.1) }
    try mouse.feed([.cancelAll], at: 1.2)
    #expect(!mouse.touching)
  }

  /// The state tells the page what a pinch on a stamp does, from the job's `pinchMoves` setting.
  @Test func theStateSaysWhetherAPinchMovesTheStamp() throws {
    #expect(try Self.recording().stateJSON.contains("\"pinchMoves\": false"))
    var job = JobEntry(
      id: "j", base: "p.jpg", output: "j.jpg", view: StampSize(500, 400),
      stamps: [StampEntry(id: "s", image: "s.png", center: StampPoint(100, 100))])
    job.settings.pinchMoves = true
    let moving = try Recording(job: job, imageSize: StampSize(1000, 800), stampSizes: [StampSize(100, 100)])
    #expect(moving.stateJSON.contains("\"pinchMoves\": true"))
  }

  /// The page's times, taken from a float clock, differ by float noise (10.016 - 10 is 0.016000000000000014): the
  /// saved items carry them rounded to the microsecond, which read back as the short decimals written.
  @Test func recordedTimesAreSavedAsMicrosecondsWithoutFloatNoise() throws {
    var r = try Self.recording()
    try r.feed([.touch(pointer: 1, phase: .began, at: StampPoint(300, 300))], at: 10)
    try r.feed([.touch(pointer: 1, phase: .moved, at: StampPoint(340, 300))], at: 10.016)
    try r.feed([.touch(pointer: 1, phase: .ended, at: StampPoint(340, 300))], at: 10.1000004)
    guard case .touches(let events)? = r.recordedJob.gestures.last else {
      Issue.record("no touches item")
      return
    }
    #expect(events.map(\.t) == [0, 0.016, 0.1])
    #expect(events.map { JSONNumber.exact($0.t) } == ["0", "0.016", "0.1"])
    // A job's own items keep their times as written.
    let own = GestureItem.touches([
      TouchEvent(t: 0, id: 0, phase: .began, location: StampPoint(1, 1)),
      TouchEvent(t: 0.0000001, id: 0, phase: .ended, location: StampPoint(1, 1)),
    ])
    let kept = try Self.recording(gestures: [own])
    #expect(kept.recordedJob.gestures == [own])
  }
}
