import StampCore
import Testing

@testable import StampImport

/// A malformed line of a getevent log, and what its error must say.
struct MalformedLog: Sendable, CustomStringConvertible {
  var description: String
  var log: String
  var line: Int
  var saying: String
}

extension GeteventImporterTests {
  static let good = "[    1.000000] EV_ABS       ABS_MT_TRACKING_ID   00000001"

  static let malformed: [MalformedLog] = [
    MalformedLog(
      description: "missing value", log: "\(good)\n[    1.000000] EV_ABS       ABS_MT_POSITION_X",
      line: 2, saying: "cannot read '[    1.000000] EV_ABS       ABS_MT_POSITION_X': expected '[seconds]"),
    MalformedLog(
      description: "timestamp not a number", log: "\(good)\n\n[    1.0x0000] EV_SYN SYN_REPORT 00000000",
      line: 3, saying: "expected a timestamp in seconds"),
    MalformedLog(
      description: "timestamp not closed", log: "[    1.000000 EV_SYN SYN_REPORT 00000000",
      line: 1, saying: "expected a timestamp in brackets"),
    MalformedLog(
      description: "value not hex", log: "\(good)\n[    1.000000] EV_ABS ABS_MT_POSITION_X 12zz",
      line: 2, saying: "expected a value in hex"),
    MalformedLog(
      description: "code neither a name nor a number", log: "[    1.000000] EV_ABS abs_mt_slot 00000001",
      line: 1, saying: "expected an event type and code"),
    MalformedLog(
      description: "no timestamp", log: "\(good)\nEV_ABS       ABS_MT_POSITION_X    0000012c",
      line: 2, saying: "this event has no timestamp but the ones before have: record the whole log with 'getevent -lt'"),
    MalformedLog(
      description: "skipped event without a timestamp", log: "\(good)\nEV_KEY       KEY_VOLUMEDOWN       DOWN",
      line: 2, saying: "this event has no timestamp but the ones before have"),
    MalformedLog(
      description: "not a getevent line", log: "\(good)\n\(good)\nhello world",
      line: 3, saying: "cannot read 'hello world'"),
    MalformedLog(
      description: "axis line without a maximum",
      log: "add device 1: /dev/input/event2\n  ABS (0003): ABS_MT_POSITION_X : value 0, min 0\n\(good)",
      line: 2, saying: "expected 'ABS_MT_POSITION_X : value V, min MIN, max MAX"),
    MalformedLog(
      description: "slot out of range", log: "\(good)\n[    1.000000] EV_ABS ABS_MT_SLOT ffffffff",
      line: 2, saying: "slot -1 is out of range"),
  ]

  @Test(arguments: malformed)
  func malformedLineNamesItsNumber(_ example: MalformedLog) throws {
    let error = try #require(throws: ImportError.self) {
      try GeteventImporter.parse(example.log, screen: Self.screen, axisMax: (x: 1079, y: 2399))
    }
    #expect(error.description.hasPrefix("line \(example.line): "), "\(error)")
    #expect(error.description.contains(example.saying), "\(error)")
  }

  @Test func unknownEventCodesAndCommentsAreSkipped() throws {
    let log = """
      # a comment
      [    1.000000] EV_ABS       ABS_MT_TRACKING_ID   00000001
      [    1.000000] EV_ABS       ABS_MT_POSITION_X    0000012c
      [    1.000000] EV_ABS       ABS_MT_POSITION_Y    00000384
      [    1.000000] EV_ABS       ABS_MT_BLOB_ID       00000003
      [    1.000000] EV_ABS       003e                 00000001
      [    1.000000] 0017 0001 00000001
      [    1.000000] EV_SW        SW_LID               00000000
      [    1.000000] EV_SYN       SYN_REPORT           00000000
      """
    let events = try GeteventImporter.parse(log, screen: Self.screen, axisMax: (x: 1079, y: 2399))
    #expect(events == [touch(0, 0, .began, 100, 300)])
  }

  @Test func eventsAfterSynDroppedAreSkippedUpToTheNextReport() throws {
    let log = """
      [    1.000000] EV_ABS ABS_MT_TRACKING_ID 00000001
      [    1.000000] EV_ABS ABS_MT_POSITION_X 0000012c
      [    1.000000] EV_ABS ABS_MT_POSITION_Y 00000384
      [    1.000000] EV_SYN SYN_REPORT 00000000
      [    1.010000] EV_SYN SYN_DROPPED 00000000
      [    1.010000] EV_ABS ABS_MT_POSITION_X 00000000
      [    1.010000] EV_SYN SYN_REPORT 00000000
      [    1.020000] EV_ABS ABS_MT_POSITION_X 0000012f
      [    1.020000] EV_SYN SYN_REPORT 00000000
      """
    let events = try GeteventImporter.parse(log, screen: Self.screen, axisMax: (x: 1079, y: 2399))
    #expect(agree(events, [touch(0, 0, .began, 100, 300), touch(0.02, 0, .moved, 101, 300)]), "\(listing(events))")
  }
}
