import StampCore
import Testing

@testable import StampImport

@Suite struct TouchesJSONTests {
  @Test func rendersOneEventPerLineInTheManifestsTouchesShape() {
    let events = [touch(0, 0, .began, 100.5, 200), touch(0.008333, 1, .moved, 1.0 / 3, 2.0 / 3)]
    let expected = """
      {"touches": [
        {"t": 0, "id": 0, "phase": "began", "x": 100.5, "y": 200},
        {"t": 0.008333, "id": 1, "phase": "moved", "x": 0.333, "y": 0.667}
      ]}
      """
    #expect(TouchesJSON.render(events) == expected)
  }

  @Test func noEventsIsAnEmptyList() {
    #expect(TouchesJSON.render([]) == #"{"touches": []}"#)
  }

  struct NumberCase: Sendable, CustomStringConvertible {
    var value: Double
    var places: Int
    var text: String
    var description: String { "\(value) to \(places) places is \(text)" }
  }

  @Test(arguments: [
    NumberCase(value: 0.00001, places: 6, text: "0.00001"),
    NumberCase(value: 1e-7, places: 6, text: "0"),
    NumberCase(value: -1e-7, places: 6, text: "0"),
    NumberCase(value: 0.1 + 0.2, places: 6, text: "0.3"),
    NumberCase(value: 200, places: 3, text: "200"),
    NumberCase(value: -12.3456, places: 3, text: "-12.346"),
    NumberCase(value: 1079.9996, places: 3, text: "1080"),
    NumberCase(value: 123_456_789.25, places: 3, text: "123456789.25"),
    NumberCase(value: 1e17, places: 3, text: "100000000000000000"),
    NumberCase(value: 1e20, places: 3, text: "1e+20"),
    NumberCase(value: .nan, places: 3, text: "null"),
  ])
  func numbersArePlainDecimalsRoundedWithoutTrailingZeros(_ example: NumberCase) {
    #expect(TouchesJSON.decimal(example.value, places: example.places) == example.text)
  }
}
