import Testing

@testable import StampCore

/// Quick taps on one point: touches down at 0, 0.1, 0.2 and 0.3 s, each lifted 0.05 s later, at (500, 500) of a
/// 1000 x 1000 photo with no view. Each touch begins 0.05 s after the one before it lifted (within the 0.35 s
/// interval) and 0 points from it (within the 40 points), so each may count on from the last.
private func quickTaps(_ count: Int) -> [TouchEvent] {
  (0..<count).flatMap { k in
    [touch(Double(k) / 10, k + 1, .began, 500, 500), touch(Double(k) / 10 + 0.05, k + 1, .ended, 500, 500)]
  }
}

extension TapRecognizerTests {
  @Test("a double tap ends its sequence: four quick taps are two double taps, zooming in and back out")
  func fourQuickTapsAreTwoDoubleTaps() throws {
    let result = try replay(plainScene([.touches(quickTaps(4))]))
    // The second touch lifts at 0.15 s: a double tap, and the toggle zooms 1 -> 4 about (500, 500). The third
    // starts a new sequence; the fourth lifts at 0.35 s: a second double tap, and the toggle goes back to 1.
    #expect(result.gestures.map(\.kind) == [.doubleTap, .doubleTap])
    #expect(result.gestures.map(\.t).enumerated().allSatisfy { close($0.element, [0.15, 0.35][$0.offset]) })
    #expect(result.viewport.zoom == 1)
    #expect(close(result.viewport.visible, StampRect(x: 0, y: 0, width: 1000, height: 1000)))
  }

  @Test("three quick taps are a double tap and then a single tap")
  func threeQuickTapsAreADoubleTapAndATap() throws {
    let result = try replay(plainScene([.touches(quickTaps(3))]))
    // The double tap fires when the second touch lifts (0.15 s) and zooms to 4 with (500, 500) at the centre: the
    // visible square is 1000 / 4 = 250 wide, from 500 - 125 = 375. The third touch lifts at 0.25 s: a single tap
    // of its own, fired 0.35 s later at 0.6 s (the item ends, so nothing comes to make it a double tap).
    #expect(result.gestures.map(\.kind) == [.doubleTap, .tap])
    #expect(close(result.gestures[0].t, 0.15) && close(result.gestures[1].t, 0.6))
    #expect(result.gestures[1].at == StampPoint(500, 500))
    #expect(result.viewport.zoom == 4)
    #expect(close(result.viewport.visible, StampRect(x: 375, y: 375, width: 250, height: 250)))
  }
}
