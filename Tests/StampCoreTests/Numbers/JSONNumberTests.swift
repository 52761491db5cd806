import Testing

@testable import StampCore

@Suite struct JSONNumberTests {
  struct Case: Sendable, CustomStringConvertible {
    var value: Double
    var places: Int
    var text: String
    var description: String { "\(value) to \(places) places is \(text)" }
  }

  @Test(arguments: [
    Case(value: 0, places: 6, text: "0"),
    Case(value: -0.0, places: 6, text: "0"),
    Case(value: 0.1 + 0.2, places: 6, text: "0.3"),
    Case(value: -12.3456, places: 3, text: "-12.346"),
    Case(value: 1e-300, places: 6, text: "0"),
    Case(value: 4e-6, places: 6, text: "0.000004"),
    Case(value: 123_456_789.25, places: 6, text: "123456789.25"),
    Case(value: 1e17, places: 6, text: "100000000000000000"),
    Case(value: -1e303, places: 6, text: "-1e+303"),
    Case(value: 1e308, places: 6, text: "1e+308"),
    Case(value: .greatestFiniteMagnitude, places: 6, text: "1.7976931348623157e+308"),
    Case(value: .infinity, places: 6, text: "null"),
    Case(value: -.infinity, places: 6, text: "null"),
    Case(value: .nan, places: 6, text: "null"),
  ])
  func writesPlainDecimalsAndNullForWhatJSONCannotHold(_ example: Case) {
    #expect(JSONNumber.text(example.value, places: example.places) == example.text)
  }

  /// Every finite double, however large or small, is written as a JSON number that reads back close to it: the
  /// old formatter multiplied by a million first and printed `-inf` for -1e303.
  @Test(arguments: [Double.leastNormalMagnitude / 1e3, 5e-7, 0.5, 1e15, 9.1e15, 9.3e18, 1e200, 1.5e302, 1e303, 1.7e308])
  func everyFiniteNumberReadsBack(_ magnitude: Double) throws {
    for value in [magnitude, -magnitude] {
      let text = JSONNumber.text(value)
      #expect(!text.contains("inf") && !text.contains("nan") && text != "null")
      let back = try #require(Double(text))
      // Rounded to a millionth: the error is at most half of one, or one part in 1e15 of a large number.
      #expect(abs(back - value) <= max(5e-7, abs(value) * 1e-15))
    }
  }
}
