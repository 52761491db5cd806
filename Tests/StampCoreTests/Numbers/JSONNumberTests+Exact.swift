import Testing

@testable import StampCore

@Suite("JSONNumber.exact: plain decimals that read back exactly")
struct JSONNumberExactTests {
  @Test(
    "exact numbers are the shortest plain decimal, never an exponent",
    arguments: [
      (200.0, "200"), (0.1, "0.1"), (1e-5, "0.00001"), (-0.0, "0"), (-2.5, "-2.5"),
      (1.2345e20, "123450000000000000000"),
      (153.33333333333334, "153.33333333333334"), (-7e-7, "-0.0000007"), (Double.nan, "null"),
      (-Double.infinity, "null"),
    ])
  func exactText(value: Double, text: String) {
    #expect(JSONNumber.exact(value) == text)
  }

  @Test(
    "an exact number reads back as the same Double through the standard library's parser",
    arguments: [
      1.0 / 3, 0.1 + 0.2, 2.0 / 3 * 1e-9, 123_456.789e10, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude,
      -4.35,
    ])
  func exactRoundTrip(value: Double) throws {
    let text = JSONNumber.exact(value)
    #expect(!text.contains("e"))
    #expect(try #require(Double(text)) == value)
  }

  @Test("rounded numbers keep the given places and drop trailing zeros")
  func roundedText() {
    #expect(JSONNumber.text(0.0000104, places: 6) == "0.00001")
    #expect(JSONNumber.text(153.33333, places: 3) == "153.333")
    #expect(JSONNumber.text(-0.0001, places: 3) == "0")
    #expect(JSONNumber.text(.infinity, places: 3) == "null")
  }
}
