import Testing

@testable import StampCore

@Suite("Finger traces for overlays")
struct TouchTraceTests {
  /// On a 200 x 100 view over a 400 x 200 photo (fit 0.5), a finger recorded from view (10, 20) to (40, 20) is
  /// traced from image (20, 40) to (80, 40); a second item's finger gets a trace of its own.
  @Test func tracesAreInImagePixelsOneFingerEach() throws {
    let drag: [TouchEvent] = [
      TouchEvent(t: 0, id: 0, phase: .began, location: StampPoint(10, 20)),
      TouchEvent(t: 0.1, id: 0, phase: .moved, location: StampPoint(25, 20)),
      TouchEvent(t: 0.2, id: 0, phase: .ended, location: StampPoint(40, 20)),
    ]
    let cancelled: [TouchEvent] = [
      TouchEvent(t: 0, id: 0, phase: .began, location: StampPoint(100, 50)),
      TouchEvent(t: 0.1, id: 0, phase: .cancelled, location: StampPoint(100, 50)),
    ]
    let spec = SceneSpec(
      imageSize: StampSize(400, 200), view: StampSize(200, 100), gestures: [.touches(drag), .touches(cancelled)])
    let (scene, traces) = try replayTracing(spec)
    #expect(
      traces == [
        TouchTrace(item: 0, id: 0, points: [StampPoint(20, 40), StampPoint(50, 40), StampPoint(80, 40)], lifted: true),
        TouchTrace(item: 1, id: 0, points: [StampPoint(200, 100), StampPoint(200, 100)], lifted: false),
      ])
    #expect(scene == (try replay(spec)), "tracing changes nothing")
  }
}
