import StampCore
import Testing

@testable import StampImport

/// Choosing the device of a log that watched several (`getevent -lt` without a device path).
extension GeteventImporterTests {
  /// The pinch on event2 and, interleaved, a one-finger tap on a second panel, event5, whose axes are 0...719 and
  /// 0...1599: on a 360x800 screen, 2 raw units per point. Its tap lands at raw (200, 400) = (100, 200).
  static let twoPanels: String = {
    let second = """
      add device 2: /dev/input/event5
        name:     "second_panel"
        events:
          ABS (0003): ABS_MT_POSITION_X     : value 0, min 0, max 719, fuzz 0, flat 0, resolution 0
                      ABS_MT_POSITION_Y     : value 0, min 0, max 1599, fuzz 0, flat 0, resolution 0
      [    4711.255000] /dev/input/event5: EV_ABS       ABS_MT_TRACKING_ID   00000001
      [    4711.255000] /dev/input/event5: EV_ABS       ABS_MT_POSITION_X    000000c8
      [    4711.255000] /dev/input/event5: EV_ABS       ABS_MT_POSITION_Y    00000190
      [    4711.255000] /dev/input/event5: EV_SYN       SYN_REPORT           00000000
      [    4711.265000] /dev/input/event5: EV_ABS       ABS_MT_TRACKING_ID   ffffffff
      [    4711.265000] /dev/input/event5: EV_SYN       SYN_REPORT           00000000
      """
    var lines = PinchLogs.labelled.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // After the pinch's first frame (its first SYN_REPORT), so the two devices' lines interleave.
    let firstReport = lines.firstIndex { $0.contains("SYN_REPORT") } ?? lines.endIndex
    lines.insert(contentsOf: second.split(separator: "\n").map(String.init), at: firstReport + 1)
    return lines.joined(separator: "\n")
  }()

  static let secondPanelTap = [touch(0, 0, .began, 100, 200), touch(0.01, 0, .ended, 100, 200)]

  @Test func severalTouchDevicesNeedADeviceChoice() throws {
    let error = try #require(throws: ImportError.self) {
      try GeteventImporter.parse(Self.twoPanels, screen: Self.screen)
    }
    #expect(error == .ambiguousDevice(["/dev/input/event2", "/dev/input/event5"]))
    #expect(error.description.contains("--device"))
  }

  @Test(arguments: ["/dev/input/event2", "event2", "test_touchscreen"])
  func deviceIsChosenByPathLastPartOrName(name: String) throws {
    let events = try GeteventImporter.parse(Self.twoPanels, screen: Self.screen, device: name)
    #expect(events == PinchLogs.expected)
  }

  @Test func theOtherDeviceUsesItsOwnAxisRanges() throws {
    let events = try GeteventImporter.parse(Self.twoPanels, screen: Self.screen, device: "event5")
    #expect(events == Self.secondPanelTap, "\n\(listing(events))")
  }

  @Test func anUnknownDeviceListsTheDevicesWithEvents() throws {
    let error = try #require(throws: ImportError.self) {
      try GeteventImporter.parse(Self.twoPanels, screen: Self.screen, device: "event9")
    }
    #expect(error == .unknownDevice("event9", known: ["/dev/input/event2", "/dev/input/event5"]))
  }

  @Test func theOnlyDeviceWithTouchesIsChosenWithoutBeingNamed() throws {
    // A volume key on event0 reports too, but only event2 reports touches.
    let keys = """
      [    4711.251000] /dev/input/event0: EV_KEY       KEY_VOLUMEDOWN       DOWN
      [    4711.251000] /dev/input/event0: EV_SYN       SYN_REPORT           00000000
      """
    let events = try GeteventImporter.parse(keys + "\n" + PinchLogs.labelled, screen: Self.screen)
    #expect(events == PinchLogs.expected)
  }

  @Test func aLogWithoutTouchesSaysSo() throws {
    let error = try #require(throws: ImportError.self) {
      try GeteventImporter.parse("[ 1.000000] EV_SYN SYN_REPORT 00000000", screen: Self.screen)
    }
    #expect(error.description.hasPrefix("no touches found in the log"))
  }
}
