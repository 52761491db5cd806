import Testing

@testable import StampManifest

struct SuggestionTests {
  @Test(arguments: [
    ("centre", "center"), ("Center", "center"), ("scal", "scale"), ("rotaton", "rotation"), ("imgae", "image"),
    ("X", "x"), ("viewoutput", "viewOutput"),
  ])
  func typosFindTheKeyTheyMeant(_ typo: String, _ key: String) {
    let keys = Shapes.stamp.keys + Shapes.touch.keys + Shapes.job.keys
    #expect(Suggestion.closest(to: typo, among: keys) == key)
  }

  @Test(arguments: ["z", "colour", "banana", String(repeating: "a", count: 100)])
  func unrelatedWordsFindNothing(_ word: String) {
    #expect(Suggestion.closest(to: word, among: Shapes.stamp.keys + Shapes.touch.keys) == nil)
  }

  @Test func adjacentSwapCountsAsOneEdit() {
    #expect(Suggestion.distance(Array("centre".utf8), Array("center".utf8)) == 1)
    #expect(Suggestion.distance(Array("".utf8), Array("abc".utf8)) == 3)
    #expect(Suggestion.distance(Array("kitten".utf8), Array("sitting".utf8)) == 3)
  }
}
