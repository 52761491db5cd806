import StampCore
import Testing

@testable import StampImport

/// The getevent importer against touch streams worked out by hand (see `PinchLogs`).
@Suite struct GeteventImporterTests {
  static let screen = StampSize(360, 800)

  @Test func labelledPinchGivesTheHandWorkedTouches() throws {
    let events = try GeteventImporter.parse(PinchLogs.labelled, screen: Self.screen)
    #expect(events == PinchLogs.expected, "\n\(listing(events))")
  }

  @Test func numericPinchGivesTheSameTouchesAsTheLabelledOne() throws {
    let numeric = try GeteventImporter.parse(PinchLogs.numeric, screen: Self.screen)
    let labelled = try GeteventImporter.parse(PinchLogs.labelled, screen: Self.screen)
    #expect(numeric == labelled)
    #expect(numeric == PinchLogs.expected, "\n\(listing(numeric))")
  }

  @Test func importedPinchIsAValidTouchStream() throws {
    let events = try GeteventImporter.parse(PinchLogs.labelled, screen: Self.screen)
    #expect(TouchStream.validate(events).isEmpty)
  }

  @Test func axisMaximaPassedInReplaceAMissingHeader() throws {
    let events = try GeteventImporter.parse(
      PinchLogs.labelledEventsOnly, screen: Self.screen, axisMax: (x: 1079, y: 2399))
    #expect(events == PinchLogs.expected, "\n\(listing(events))")
  }

  @Test func axisMaximaPassedInOverrideTheHeader() throws {
    // The header claims twice the range; the explicit maxima win, so the hand-worked points stay.
    let doubled = PinchLogs.labelled.replacing("max 1079", with: "max 2159").replacing("max 2399", with: "max 4799")
    let events = try GeteventImporter.parse(doubled, screen: Self.screen, axisMax: (x: 1079, y: 2399))
    #expect(events == PinchLogs.expected)
  }

  @Test func headerRangesScaleAsRawMinusMinOverMaxMinusMinPlusOne() throws {
    // x from 100 to 1179 (1080 values): raw 300 is (300 - 100) * 360 / 1080 = 66.667 points, not 200 / 1079 * 360.
    // y from 0 to 1199 (1200 values) on 800 points: raw 900 is 900 * 800 / 1200 = 600.
    let shifted = PinchLogs.labelled.replacing("min 0, max 1079", with: "min 100, max 1179")
      .replacing("max 2399", with: "max 1199")
    let events = try GeteventImporter.parse(shifted, screen: Self.screen)
    let first = try #require(events.first)
    #expect(abs(first.location.x - 200.0 / 3) < 1e-9)
    #expect(first.location.y == 600)
  }

  @Test func missingAxisRangeAsksForAxisMax() throws {
    let error = try #require(throws: ImportError.self) {
      try GeteventImporter.parse(PinchLogs.labelledEventsOnly, screen: Self.screen)
    }
    #expect(error.description.contains("--axis-max"))
  }

  @Test func aContactLandingWhereItsSlotLastWasGetsThatPosition() throws {
    // The kernel drops a value equal to the slot's: the second finger in slot 0 lands on the first one's spot and
    // its tracking id comes with no position at all.
    let log = """
      [  10.000000] EV_ABS ABS_MT_TRACKING_ID 00000007
      [  10.000000] EV_ABS ABS_MT_POSITION_X 0000012c
      [  10.000000] EV_ABS ABS_MT_POSITION_Y 00000384
      [  10.000000] EV_SYN SYN_REPORT 00000000
      [  10.100000] EV_ABS ABS_MT_TRACKING_ID ffffffff
      [  10.100000] EV_SYN SYN_REPORT 00000000
      [  10.200000] EV_ABS ABS_MT_TRACKING_ID 00000008
      [  10.200000] EV_SYN SYN_REPORT 00000000
      """
    let events = try GeteventImporter.parse(log, screen: Self.screen, axisMax: (x: 1079, y: 2399))
    #expect(
      events == [touch(0, 0, .began, 100, 300), touch(0.1, 0, .ended, 100, 300), touch(0.2, 1, .began, 100, 300)])
  }

  @Test func protocolAContactsAreMatchedToTheNearestPreviousOne() throws {
    // Worked by hand, 1 point = 3 raw units. Each frame lists every contact; the second frame lists the new finger
    // first, so only matching by distance keeps ids right; an empty frame lifts the last finger.
    // 5.00: (300, 900) = (100, 300) begins as touch 0.
    // 5.01: (600, 1500) = (200, 500) begins as touch 1; (303, 900) = (101, 300) moves touch 0.
    // 5.02: touch 1 to (606, 1500) = (202, 500); touch 0 still at (303, 900): left out.
    // 5.03: only (606, 1503) = (202, 501) is left: touch 1 moves, touch 0 ends at (101, 300).
    // 5.04: no contact: touch 1 ends at (202, 501).
    let log = """
      [    5.000000] EV_ABS ABS_MT_POSITION_X 0000012c
      [    5.000000] EV_ABS ABS_MT_POSITION_Y 00000384
      [    5.000000] EV_SYN SYN_MT_REPORT 00000000
      [    5.000000] EV_SYN SYN_REPORT 00000000
      [    5.010000] EV_ABS ABS_MT_POSITION_X 00000258
      [    5.010000] EV_ABS ABS_MT_POSITION_Y 000005dc
      [    5.010000] EV_SYN SYN_MT_REPORT 00000000
      [    5.010000] EV_ABS ABS_MT_POSITION_X 0000012f
      [    5.010000] EV_ABS ABS_MT_POSITION_Y 00000384
      [    5.010000] EV_SYN SYN_MT_REPORT 00000000
      [    5.010000] EV_SYN SYN_REPORT 00000000
      [    5.020000] 0003 0035 0000012f
      [    5.020000] 0003 0036 00000384
      [    5.020000] 0000 0002 00000000
      [    5.020000] 0003 0035 0000025e
      [    5.020000] 0003 0036 000005dc
      [    5.020000] 0000 0002 00000000
      [    5.020000] 0000 0000 00000000
      [    5.030000] EV_ABS ABS_MT_POSITION_X 0000025e
      [    5.030000] EV_ABS ABS_MT_POSITION_Y 000005df
      [    5.030000] EV_SYN SYN_MT_REPORT 00000000
      [    5.030000] EV_SYN SYN_REPORT 00000000
      [    5.040000] EV_SYN SYN_MT_REPORT 00000000
      [    5.040000] EV_KEY BTN_TOUCH UP
      [    5.040000] EV_SYN SYN_REPORT 00000000
      """
    let events = try GeteventImporter.parse(log, screen: Self.screen, axisMax: (x: 1079, y: 2399))
    let expected = [
      touch(0, 0, .began, 100, 300),
      touch(0.01, 0, .moved, 101, 300), touch(0.01, 1, .began, 200, 500),
      touch(0.02, 1, .moved, 202, 500),
      touch(0.03, 0, .ended, 101, 300), touch(0.03, 1, .moved, 202, 501),
      touch(0.04, 1, .ended, 202, 501),
    ]
    #expect(agree(events, expected), "\n\(listing(events))")
  }

  @Test func badScreenOrAxisMaxIsRefused() {
    #expect(throws: ImportError.self) { try GeteventImporter.parse(PinchLogs.labelled, screen: StampSize(0, 800)) }
    #expect(throws: ImportError.self) {
      try GeteventImporter.parse(PinchLogs.labelled, screen: Self.screen, axisMax: (x: 0, y: 2399))
    }
  }
}
