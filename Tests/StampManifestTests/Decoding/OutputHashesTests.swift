import Testing

@testable import StampManifest

/// `OutputHashes`: outputs held as hashes of their paths' prefixes meet as `OutputTree`'s paths do.
struct OutputHashesTests {
  struct Case: CustomStringConvertible {
    var earlier: String
    var later: String
    var clash: OutputHashes.Clash?
    var description: String { "\(earlier) then \(later)" }
  }

  @Test(
    arguments: [
      Case(earlier: "a/b.jpg", later: "a/b.jpg", clash: .sameFile(7)),
      Case(earlier: "a/b.jpg/c.jpg", later: "a/b.jpg", clash: .isFolder(7)),
      Case(earlier: "a/b.jpg", later: "a/b.jpg/c.jpg", clash: .underFile(7, name: "a/b.jpg")),
      Case(earlier: "a/b.jpg", later: "a/c.jpg", clash: nil),
      // Components do not run together, and a file's name is not its folder's.
      Case(earlier: "ab/c.jpg", later: "a/bc.jpg", clash: nil),
      Case(earlier: "a/b", later: "a/b/", clash: .sameFile(7)),
      // é in NFC and in NFD: two names, two files.
      Case(earlier: "caf\u{E9}.jpg", later: "cafe\u{301}.jpg", clash: nil),
    ])
  func aLaterOutputMeetsAnEarlierOneAsTheTreeOfPathsWould(_ test: Case) {
    var hashes = OutputHashes()
    #expect(hashes.add(test.earlier, owner: 7) == nil)
    #expect(hashes.add(test.later, owner: 9) == test.clash)
  }

  @Test func aFolderSharedByManyOutputsIsHeldOnce() {
    var hashes = OutputHashes()
    for k in 0..<1000 { #expect(hashes.add("shared/inner/p\(k).jpg", owner: OutputHashes.Owner(k)) == nil) }
    #expect(hashes.count == 1002)
  }
}
