import StampCore
import Testing

@Suite struct ReplayErrorTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let error: ReplayError
    let path: String
    let message: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "touches, one problem",
      error: .invalidTouches(item: 2, issues: [TouchStreamIssue(index: 4, field: "t", message: "time goes backwards")]),
      path: "gestures[2].touches[4].t", message: "time goes backwards"),
    Case(
      name: "touches, two problems, the second about a whole event",
      error: .invalidTouches(
        item: 0,
        issues: [
          TouchStreamIssue(index: 1, field: "x", message: "must be finite"),
          TouchStreamIssue(index: 3, field: nil, message: "finger 2 is not down"),
        ]),
      path: "gestures[0].touches[1].x", message: "must be finite; gestures[0].touches[3]: finger 2 is not down"),
    Case(
      name: "unknown stamp", error: .unknownStamp(item: 1, id: "logo"), path: "gestures[1]",
      message: "no stamp has the id \"logo\""),
    Case(
      name: "covered stamp", error: .stampCovered(item: 3, id: "a"), path: "gestures[3]",
      message: "stamp \"a\" is covered by the stamps above it where the gesture would begin"),
    Case(
      name: "item field", error: .invalidItem(item: 0, field: "steps", message: "must be 1 or more: not 0"),
      path: "gestures[0].steps", message: "must be 1 or more: not 0"),
    Case(
      name: "scene", error: .invalidScene(path: "stamps[1].id", message: "duplicate stamp id \"a\""),
      path: "stamps[1].id", message: "duplicate stamp id \"a\""),
  ]

  @Test("the path and the message are values, and the text is the path, a colon and the message", arguments: cases)
  func pathAndMessage(_ c: Case) {
    #expect(c.error.path == c.path)
    #expect(c.error.message == c.message)
    #expect(c.error.description == c.path + ": " + c.message)
  }

  @Test func replayThrowsAReplayErrorByType() {
    let spec = SceneSpec(imageSize: StampSize(0, 10))
    do {
      _ = try replay(spec)
      Issue.record("an empty photo replayed")
    } catch {
      // `error` is a ReplayError here without a cast: `replay` is typed `throws(ReplayError)`.
      #expect(error.path == "imageSize.width")
      #expect(error.message == "must be a positive number, not 0.00")
    }
  }
}
