import Foundation
import StampCore
import Testing

@testable import StampImport

/// Logs as people really paste them: prompts, no timestamps, CRLF, numeric headers.
extension GeteventImporterTests {
  static let phone = StampSize(360, 640)

  @Test func aPastedPhoneSessionWithoutTimestampsImportsWithAFrameInterval() throws {
    let events = try GeteventImporter.parse(RealWorldLogs.phoneSession, screen: Self.phone, frameInterval: 0.008)
    #expect(agree(events, RealWorldLogs.phoneSessionTouches), "\n\(listing(events))")
  }

  @Test func theImportedPinchReplaysAsTheFingersSay() throws {
    // On a 360x640 photo with no view (points are pixels), a stamp 300 wide centred on (200, 300): the first
    // finger lands on it. Independently of the engine: the finger line goes from (100, 0) to (180, 30), so the
    // stamp scales by |(180, 30)| / 100 = sqrt(33300) / 100 and turns by atan2(30, 180), clockwise positive.
    let events = try GeteventImporter.parse(RealWorldLogs.phoneSession, screen: Self.phone, frameInterval: 0.008)
    let stamp = StampSpec(id: "s", center: StampPoint(200, 300), pixelSize: StampSize(300, 300))
    let spec = SceneSpec(imageSize: StampSize(360, 640), stamps: [stamp], gestures: [.touches(events)])
    let result = try replay(spec)
    let placed = try #require(result.stamps.first)
    #expect(abs(placed.scale - 33300.0.squareRoot() / 100) < 1e-6)
    #expect(abs(placed.rotation - atan2(30, 180) * 180 / .pi) < 1e-6)
    #expect(abs(placed.center.x - 200) < 1e-9 && abs(placed.center.y - 300) < 1e-9)
    #expect(result.gestures.map(\.kind) == [.pinch])
  }

  @Test func anUntimedLogWithoutAFrameIntervalSaysWhatToPass() throws {
    let error = try #require(throws: ImportError.self) {
      try GeteventImporter.parse(RealWorldLogs.phoneSession, screen: Self.phone)
    }
    #expect(error == .untimed(line: 15))
    #expect(error.description.contains("--frame-interval"))
    #expect(error.description.contains("0.008 for a 120 Hz panel"))
  }

  @Test func windowsLineEndsAndTrailingSpacesAreAccepted() throws {
    let timed = try GeteventImporter.parse(RealWorldLogs.windows(PinchLogs.labelled), screen: Self.screen)
    #expect(timed == PinchLogs.expected, "\n\(listing(timed))")
    let numeric = try GeteventImporter.parse(RealWorldLogs.windows(PinchLogs.numeric), screen: Self.screen)
    #expect(numeric == PinchLogs.expected)
    let untimed = try GeteventImporter.parse(
      RealWorldLogs.windows(RealWorldLogs.phoneSession), screen: Self.phone, frameInterval: 0.008)
    #expect(agree(untimed, RealWorldLogs.phoneSessionTouches))
  }

  @Test(
    arguments: [
      "root@android:/ # getevent -lt", "OnePlus3T:/ $ getevent -lt /dev/input/event2", "OnePlus3T:/ $",
      "getevent -lt", "$ adb shell getevent -lt", #"C:\platform-tools>adb shell getevent -lt"#,
      "130|shell@hammerhead:/ $ ", "^C", "",
    ])
  func shellLinesAroundACaptureAreSkipped(_ line: String) throws {
    let events = try GeteventImporter.parse(line + "\n" + PinchLogs.labelled + "\n" + line, screen: Self.screen)
    #expect(events == PinchLogs.expected)
  }

  @Test func aLogMixingTimedAndUntimedEventsIsAnError() throws {
    let log = "\(Self.good)\nEV_SYN       SYN_REPORT           00000000"
    let error = try #require(throws: ImportError.self) {
      try GeteventImporter.parse(log, screen: Self.screen, axisMax: (x: 1079, y: 2399), frameInterval: 0.008)
    }
    #expect(error.description.hasPrefix("line 2: this event has no timestamp"))
  }

  @Test func reportsThatChangeNoTouchGiveNoFrameInATimedLog() throws {
    // An empty report between every two of the pinch's: the touches are the same, at the same times.
    let padded = PinchLogs.labelled.split(separator: "\n").flatMap { line in
      line.contains("SYN_REPORT") ? [line, line] : [line]
    }.joined(separator: "\n")
    let events = try GeteventImporter.parse(padded, screen: Self.screen)
    #expect(events == PinchLogs.expected)
  }

  @Test(
    arguments: [
      (StampSize(1e20, 1), nil, nil, "the screen size must be two numbers above 0 and at most 1000000"),
      (StampSize(.nan, 1), nil, nil, "the screen size"),
      (StampSize(360, 800), (x: 1079, y: 2_000_000_000), nil, "--axis-max must be two whole numbers from 1 to"),
      (StampSize(360, 800), nil, 0.0, "--frame-interval must be"),
      (StampSize(360, 800), nil, Double.infinity, "not inf"),
      (StampSize(360, 800), nil, 1.5, "at most 1"), (StampSize(360, 800), nil, -0.008, "e.g. 0.008"),
    ] as [(StampSize, (x: Int, y: Int)?, Double?, String)])
  func absurdParametersAreRefused(screen: StampSize, axisMax: (x: Int, y: Int)?, interval: Double?, words: String)
    throws
  {
    let error = try #require(throws: ImportError.self) {
      try GeteventImporter.parse(PinchLogs.labelled, screen: screen, axisMax: axisMax, frameInterval: interval)
    }
    #expect(error.description.contains(words), "\(error)")
  }
}
