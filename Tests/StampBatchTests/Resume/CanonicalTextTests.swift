import Testing

@testable import StampBatch

@Suite("Canonical text of values, for fingerprints")
struct CanonicalTextTests {
  struct Pair: Hashable {
    var a: Double
    var b: String?
  }

  enum Shape: Hashable {
    case dot
    case box(Double, Double)
  }

  /// Values that differ, however slightly, are written differently: the next double up, a nil against an empty
  /// string, a string that looks like another field, two enum cases.
  @Test func differentValuesGiveDifferentText() {
    let values: [Any] = [
      Pair(a: 1, b: nil), Pair(a: 1.0.nextUp, b: nil), Pair(a: 1, b: ""), Pair(a: 1, b: "1\"x"),
      Shape.dot, Shape.box(1, 2), Shape.box(2, 1), [1.0, 2.0], [2.0, 1.0],
    ]
    let texts = values.map(CanonicalText.text(of:))
    #expect(Set(texts).count == values.count, "\(texts)")
  }

  /// A set's text does not depend on the order Swift happens to iterate it in (which changes per process): the
  /// same elements inserted in opposite orders, into sets of different capacities, give the same text.
  @Test func setsAndDictionariesAreSorted() {
    var small = Set<String>()
    var large = Set<String>(minimumCapacity: 1000)
    let words = (0..<50).map { "w\($0)" }
    for word in words { small.insert(word) }
    for word in words.reversed() { large.insert(word) }
    #expect(CanonicalText.text(of: small) == CanonicalText.text(of: large))
    let a = Dictionary(uniqueKeysWithValues: words.map { ($0, 1) })
    var b = [String: Int](minimumCapacity: 1000)
    for word in words.reversed() { b[word] = 1 }
    #expect(CanonicalText.text(of: a) == CanonicalText.text(of: b))
  }

  /// Doubles are written by their bit pattern: 0.1 is 0x3fb999999999999a.
  @Test func doublesAreWrittenExactly() {
    #expect(CanonicalText.text(of: 0.1) == "d3fb999999999999a")
  }
}
