import Foundation
import StampCore
import Testing

@testable import StampImport

/// The hand-made example logs in `Examples/traces` import into the gestures they describe.
@Suite struct ExampleTraceTests {
  static func example(_ name: String) throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent()
    return try String(contentsOf: root.appendingPathComponent("Examples/traces/\(name)"), encoding: .utf8)
  }

  /// The first and the last frame where both fingers are down, as (finger 0, finger 1).
  static func twoFingerEnds(_ events: [TouchEvent]) throws -> (
    first: (StampPoint, StampPoint), last: (StampPoint, StampPoint)
  ) {
    var positions: [Int: StampPoint] = [:]
    var pairs: [(StampPoint, StampPoint)] = []
    for (index, event) in events.enumerated() {
      if event.phase == .ended || event.phase == .cancelled {
        positions[event.id] = nil
      } else {
        positions[event.id] = event.location
      }
      let frameEnds = index + 1 == events.count || events[index + 1].t != event.t
      if frameEnds, event.phase != .ended, let a = positions[0], let b = positions[1] { pairs.append((a, b)) }
    }
    let first = try #require(pairs.first)
    let last = try #require(pairs.last)
    return (first, last)
  }

  @Test func pinchRotateGeteventDoublesTheSpanAndTurnsThirtyDegreesClockwise() throws {
    let events = try GeteventImporter.parse(try Self.example("pinch-rotate.getevent"), screen: StampSize(360, 800))
    #expect(TouchStream.validate(events).isEmpty)
    #expect(Set(events.map(\.id)) == [0, 1])
    #expect(events.filter { $0.phase == .began }.count == 2 && events.filter { $0.phase == .ended }.count == 2)
    let duration = try #require(events.last?.t)
    #expect(duration > 0.5 && duration < 0.6)
    let ends = try Self.twoFingerEnds(events)
    func span(_ pair: (StampPoint, StampPoint)) -> (length: Double, degrees: Double) {
      let dx = pair.1.x - pair.0.x
      let dy = pair.1.y - pair.0.y
      return ((dx * dx + dy * dy).squareRoot(), atan2(dy, dx) * 180 / .pi)
    }
    let (start, end) = (span(ends.first), span(ends.last))
    #expect(abs(end.length / start.length - 2) < 0.03, "scale \(end.length / start.length)")
    // y points down, so a growing angle turns clockwise on screen.
    #expect(abs(end.degrees - start.degrees - 30) < 1, "rotation \(end.degrees - start.degrees)")
  }

  @Test func doubleTapGeteventIsTwoShortNearbyTaps() throws {
    let events = try GeteventImporter.parse(try Self.example("double-tap.getevent"), screen: StampSize(360, 800))
    #expect(TouchStream.validate(events).isEmpty)
    let downs = events.filter { $0.phase == .began }
    let ups = events.filter { $0.phase == .ended }
    try #require(downs.count == 2 && ups.count == 2)
    #expect(downs.map(\.id) == [0, 1])
    #expect(ups[0].t - downs[0].t < 0.5 && ups[1].t - downs[1].t < 0.5)
    #expect(downs[1].t - ups[0].t < 0.35)
    let gap = (downs[1].location.x - ups[0].location.x, downs[1].location.y - ups[0].location.y)
    #expect((gap.0 * gap.0 + gap.1 * gap.1).squareRoot() < 40)
  }

  @Test func pinchCDPDoublesTheSpan() throws {
    let events = try CDPImporter.parse(try Self.example("pinch.cdp.jsonl"))
    #expect(TouchStream.validate(events).isEmpty)
    let ends = try Self.twoFingerEnds(events)
    func length(_ pair: (StampPoint, StampPoint)) -> Double {
      ((pair.1.x - pair.0.x) * (pair.1.x - pair.0.x) + (pair.1.y - pair.0.y) * (pair.1.y - pair.0.y)).squareRoot()
    }
    #expect(abs(length(ends.last) / length(ends.first) - 2) < 0.01)
  }

  @Test(arguments: ["pinch-rotate.getevent", "double-tap.getevent", "pinch.cdp.jsonl"])
  func examplesStaySmall(name: String) throws {
    #expect(try Self.example(name).utf8.count < 40_000)
  }
}
