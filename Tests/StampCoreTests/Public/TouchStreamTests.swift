import Testing

@testable import StampCore

@Suite("TouchStream.validate: the rules a recorded trace must follow")
struct TouchStreamTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let events: [TouchEvent]
    let issues: [TouchStreamIssue]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "a tap, then the id used again",
      events: [
        touch(0, 1, .began, 0, 0), touch(0.1, 1, .ended, 0, 0), touch(0.2, 1, .began, 5, 5),
        touch(0.3, 1, .stationary, 5, 5), touch(0.4, 1, .cancelled, 5, 5),
      ], issues: []),
    Case(
      name: "time goes backwards", events: [touch(0.6, 1, .began, 0, 0), touch(0.52, 1, .ended, 0, 0)],
      issues: [TouchStreamIssue(index: 1, field: "t", message: "time goes backwards (0.52 after 0.60)")]),
    Case(
      name: "equal times are one frame, not a step back",
      events: [
        touch(0.5, 1, .began, 0, 0), touch(0.5, 2, .began, 9, 9), touch(0.5, 1, .ended, 0, 0),
        touch(0.5, 2, .ended, 9, 9),
      ], issues: []),
    Case(
      name: "not-a-number and infinite values", events: [touch(.nan, 1, .began, .infinity, 0)],
      issues: [
        TouchStreamIssue(index: 0, field: "t", message: "must be a finite number, not nan"),
        TouchStreamIssue(index: 0, field: "x", message: "must be a finite number, not inf"),
      ]),
    Case(
      name: "negative time", events: [touch(-0.25, 1, .began, 0, 0)],
      issues: [TouchStreamIssue(index: 0, field: "t", message: "time is negative (-0.25)")]),
    Case(
      name: "a touch moves before it begins", events: [touch(0, 3, .moved, 0, 0)],
      issues: [TouchStreamIssue(index: 0, field: "phase", message: "touch 3 moves before it begins")]),
    Case(
      name: "a touch ends before it begins", events: [touch(0, 3, .ended, 0, 0)],
      issues: [TouchStreamIssue(index: 0, field: "phase", message: "touch 3 ends before it begins")]),
    Case(
      name: "a touch moves after it ended",
      events: [
        touch(0, 2, .began, 0, 0), touch(0.1, 2, .ended, 0, 0), touch(0.2, 2, .moved, 1, 1),
      ], issues: [TouchStreamIssue(index: 2, field: "phase", message: "touch 2 moves before it begins")]),
    Case(
      name: "an id used twice among live touches", events: [touch(0, 1, .began, 0, 0), touch(0.1, 1, .began, 5, 5)],
      issues: [TouchStreamIssue(index: 1, field: "id", message: "touch 1 begins again while it is down")]),
  ]

  @Test("each rule, with its message", arguments: cases)
  func rules(_ c: Case) {
    #expect(TouchStream.validate(c.events) == c.issues)
  }

  @Test("every issue is reported, not only the first")
  func everyIssue() {
    let events = [touch(1, 1, .moved, 0, 0), touch(0.5, 2, .ended, 0, 0)]
    #expect(TouchStream.validate(events).count == 3)
  }

  @Test("at most 32 touches down at once")
  func tooManyTouches() {
    let events = (0...32).map { touch(0, $0, .began, Double($0), 0) }
    let issues = TouchStream.validate(events)
    #expect(issues == [TouchStreamIssue(index: 32, field: "phase", message: "more than 32 touches down at once")])
  }

  @Test("an issue describes itself with its index and field, ready for a JSON path")
  func issueDescription() {
    let issue = TouchStreamIssue(index: 7, field: "t", message: "time goes backwards (0.52 after 0.60)")
    #expect(issue.description == "[7].t: time goes backwards (0.52 after 0.60)")
  }

  @Test(
    "numbers in messages keep at least two decimals",
    arguments: [
      (0.6, "0.60"), (0.52, "0.52"), (0.523, "0.523"), (12, "12.00"), (-0.25, "-0.25"),
    ])
  func numberFormat(_ value: Double, _ text: String) {
    #expect(formatNumber(value) == text)
  }
}
