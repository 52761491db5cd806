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
