import StampCore
import Testing

@testable import StampImport

/// The Chrome DevTools Protocol importer against touch streams worked out by hand.
@Suite struct CDPImporterTests {
  /// The documented form: `touchPoints` lists every touch down after the message; `touchEnd` lists none.
  /// CDP ids 7 and 9 become touches 0 and 1; lines 2 to 4 (another method, a response, a blank) are skipped.
  /// - 1000.00: 7 lands at (100, 200).
  /// - 1000.25: 9 joins at (300, 400); 7 is listed where it was, so it is left out.
  /// - 1000.50: 7 to (90, 190), 9 to (310.5, 410).
  /// - 1000.75: only 9 is listed, at (310.5, 420): 9 moves; 7, left out, stays down where it was (as Chromium
  ///   does: a message changes only the touches it lists).
  /// - 1001.00: touchEnd with no points: 7 and 9 end.
  static let documented = """
    {"id": 1, "method": "Input.dispatchTouchEvent", "params": {"type": "touchStart", \
    "touchPoints": [{"x": 100, "y": 200, "id": 7}], "timestamp": 1000}}
    {"id": 2, "method": "Page.enable"}
    {"id": 1, "result": {}}

    {"type": "touchMove", "touchPoints": [{"x": 100, "y": 200, "id": 7}, {"x": 300, "y": 400, "id": 9}], \
    "timestamp": 1000.25}
    {"method": "Input.dispatchTouchEvent", "params": {"type": "touchMove", \
    "touchPoints": [{"x": 90, "y": 190, "id": 7}, {"x": 310.5, "y": 410, "id": 9}], "timestamp": 1000.5}}
    {"method": "Input.dispatchTouchEvent", "params": {"type": "touchMove", \
    "touchPoints": [{"x": 310.5, "y": 420, "id": 9}], "timestamp": 1000.75}}
    {"method": "Input.dispatchTouchEvent", "params": {"type": "touchEnd", "touchPoints": [], "timestamp": 1001}}
    """

  @Test func twoTouchesStartMoveAndEndAsDocumented() throws {
    let events = try CDPImporter.parse(Self.documented)
    let expected = [
      touch(0, 0, .began, 100, 200),
      touch(0.25, 1, .began, 300, 400),
      touch(0.5, 0, .moved, 90, 190), touch(0.5, 1, .moved, 310.5, 410),
      touch(0.75, 1, .moved, 310.5, 420),
      touch(1, 0, .ended, 90, 190), touch(1, 1, .ended, 310.5, 420),
    ]
    #expect(events == expected, "\n\(listing(events))")
    #expect(TouchStream.validate(events).isEmpty)
  }

  @Test func windowsLineEndsAndTrailingSpacesAreAccepted() throws {
    // Before, a CRLF log was one line: Swift takes "\r\n" as one Character, so splitting at "\n" missed it.
    let events = try CDPImporter.parse(RealWorldLogs.windows(Self.documented))
    #expect(events == (try CDPImporter.parse(Self.documented)))
    #expect(events.count == 7)
  }

  @Test func puppeteerStyleMessagesAboutOneTouchLeaveTheOthersDown() throws {
    // A second touchStart while a touch is down, and touchEnd with points: each message is about its points only.
    // No timestamps: one message every 1/60 s.
    let log = """
      {"type": "touchStart", "touchPoints": [{"x": 10, "y": 20, "id": 0}]}
      {"type": "touchStart", "touchPoints": [{"x": 50, "y": 60, "id": 1}]}
      {"type": "touchMove", "touchPoints": [{"x": 12, "y": 20, "id": 0}]}
      {"type": "touchMove", "touchPoints": [{"x": 50, "y": 64, "id": 1}]}
      {"type": "touchEnd", "touchPoints": [{"x": 12, "y": 20, "id": 0}]}
      {"type": "touchEnd", "touchPoints": [{"x": 50, "y": 64, "id": 1}]}
      """
    let events = try CDPImporter.parse(log)
    let expected = [
      touch(0, 0, .began, 10, 20), touch(1.0 / 60, 1, .began, 50, 60),
      touch(2.0 / 60, 0, .moved, 12, 20), touch(3.0 / 60, 1, .moved, 50, 64),
      touch(4.0 / 60, 0, .ended, 12, 20), touch(5.0 / 60, 1, .ended, 50, 64),
    ]
    #expect(agree(events, expected), "\n\(listing(events))")
  }

  /// One lift rule, whatever brought a finger down: a touch left out of a message stays down,
  /// as Chromium's `Input.dispatchTouchEvent` keeps it (checked against headless Chromium 156: the page saw finger
  /// 1 in `touches` until the `touchEnd`). The two logs differ only in the type of their second message: finger 2
  /// comes down in a `touchStart`, or in a `touchMove` that lists finger 1 where it is. Either way, at 0.5 s finger
  /// 2 moves 50 points right and finger 1, left out, stays at (100, 200) until the `touchEnd` at 1 s ends both.
  @Test(arguments: [
    #"{"type": "touchStart", "touchPoints": [{"x": 300, "y": 400, "id": 2}], "timestamp": 10.25}"#,
    #"{"type": "touchMove", "touchPoints": [{"x": 100, "y": 200, "id": 1}, {"x": 300, "y": 400, "id": 2}], "#
      + #""timestamp": 10.25}"#,
  ])
  func aTouchLeftOutOfAMessageStaysDown(_ second: String) throws {
    let log = [
      #"{"type": "touchStart", "touchPoints": [{"x": 100, "y": 200, "id": 1}], "timestamp": 10}"#, second,
      #"{"type": "touchMove", "touchPoints": [{"x": 350, "y": 400, "id": 2}], "timestamp": 10.5}"#,
      #"{"type": "touchEnd", "touchPoints": [], "timestamp": 11}"#,
    ].joined(separator: "\n")
    let events = try CDPImporter.parse(log)
    let expected = [
      touch(0, 0, .began, 100, 200), touch(0.25, 1, .began, 300, 400), touch(0.5, 1, .moved, 350, 400),
      touch(1, 0, .ended, 100, 200), touch(1, 1, .ended, 350, 400),
    ]
    #expect(events == expected, "\n\(listing(events))")
  }

  @Test func pointsWithoutIdsAreTheirIndexAndACancelEndsEveryTouch() throws {
    // Chrome numbers points without ids by their place in the list, so the second gesture reuses CDP id 0;
    // it is a new touch all the same, touch 2.
    let log = """
      {"type": "touchStart", "touchPoints": [{"x": 1, "y": 2}, {"x": 3, "y": 4}], "timestamp": 7}
      {"type": "touchCancel", "touchPoints": [], "timestamp": 7.5}
      {"type": "touchStart", "touchPoints": [{"x": 5, "y": 6}], "timestamp": 8}
      {"type": "touchEnd", "timestamp": 8.125}
      """
    let events = try CDPImporter.parse(log)
    let expected = [
      touch(0, 0, .began, 1, 2), touch(0, 1, .began, 3, 4),
      touch(0.5, 0, .cancelled, 1, 2), touch(0.5, 1, .cancelled, 3, 4),
      touch(1, 2, .began, 5, 6), touch(1.125, 2, .ended, 5, 6),
    ]
    #expect(events == expected, "\n\(listing(events))")
  }

  struct BadLog: Sendable, CustomStringConvertible {
    var description: String
    var log: String
    var line: Int
    var saying: String
  }

  static let start = #"{"type": "touchStart", "touchPoints": [{"x": 1, "y": 2, "id": 1}], "timestamp": 5}"#

  static let bad: [BadLog] = [
    BadLog(description: "not JSON", log: "\(start)\n{\"type\": ", line: 2, saying: "expected a JSON object"),
    BadLog(
      description: "unknown type", log: #"{"type": "touchWiggle", "touchPoints": []}"#, line: 1,
      saying: "type: expected touchStart, touchMove, touchEnd or touchCancel"),
    BadLog(
      description: "x not a number", log: #"{"type": "touchStart", "touchPoints": [{"x": "1", "y": 2}]}"#, line: 1,
      saying: "touchPoints[0].x: expected a number"),
    BadLog(
      description: "some ids missing",
      log: #"{"type": "touchStart", "touchPoints": [{"x": 1, "y": 2, "id": 4}, "#
        + #"{"x": 3, "y": 4}]}"#, line: 1, saying: "all of the touch points or none must have an id"),
    BadLog(
      description: "time goes back",
      log: "\(start)\n" + #"{"type": "touchMove", "touchPoints": [{"x": 1, "y": 3, "id": 1}], "timestamp": 4}"#,
      line: 2, saying: "goes back in time"),
    BadLog(
      description: "a touch that is not down ends",
      log: "\(start)\n" + #"{"type": "touchEnd", "touchPoints": [{"x": 1, "y": 3, "id": 2}], "timestamp": 6}"#,
      line: 2, saying: "touch point 2 ends but is not down"),
    BadLog(
      description: "touchMove without points", log: "\(start)\n" + #"{"type": "touchMove", "touchPoints": []}"#,
      line: 2, saying: "touchMove needs at least one touch point"),
    BadLog(description: "an array, not an object", log: "\(start)\n[1, 2]", line: 2, saying: "expected a JSON object"),
    BadLog(
      description: "x a boolean", log: #"{"type": "touchStart", "touchPoints": [{"x": true, "y": 2}]}"#, line: 1,
      saying: "touchPoints[0].x: expected a number"),
    BadLog(
      description: "params not an object", log: #"{"method": "Input.dispatchTouchEvent", "params": [1]}"#, line: 1,
      saying: "params: expected an object"),
    BadLog(
      description: "touchPoints not an array", log: #"{"type": "touchStart", "touchPoints": {"x": 1}}"#, line: 1,
      saying: "touchPoints: expected an array"),
  ]

  @Test(arguments: bad)
  func badLineNamesItsNumber(_ example: BadLog) throws {
    let error = try #require(throws: ImportError.self) { try CDPImporter.parse(example.log) }
    #expect(error.description.hasPrefix("line \(example.line): "), "\(error)")
    #expect(error.description.contains(example.saying), "\(error)")
  }

  @Test func aLogWithoutTouchMessagesSaysSo() throws {
    let error = try #require(throws: ImportError.self) {
      try CDPImporter.parse(#"{"method": "Page.enable"}"#)
    }
    #expect(error.description.hasPrefix("no touches found in the log"))
  }
}
