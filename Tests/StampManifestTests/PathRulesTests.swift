import Testing

@testable import StampManifest

struct PathRulesTests {
  @Test(arguments: [("a.jpg", "a.jpg"), ("./a//b/./c.png", "a/b/c.png"), ("x/y.webp", "x/y.webp")])
  func outputsAreNormalized(_ given: String, _ normalized: String) {
    #expect(PathRules.problem(withOutput: given) == nil)
    #expect(PathRules.normalize(given) == normalized)
  }

  @Test(arguments: ["/abs.jpg", "../a.jpg", "a/../../b.jpg", "a/..", ".", "a/", "./"])
  func outputsThatLeaveOutOrNameAFolderAreRefused(_ given: String) {
    #expect(PathRules.problem(withOutput: given) != nil)
  }

  @Test func inputsResolveAgainstTheManifestsFolder() {
    #expect(PathRules.resolve("a.jpg", in: "") == "a.jpg")
    #expect(PathRules.resolve("a.jpg", in: "set") == "set/a.jpg")
    #expect(PathRules.resolve("../a.jpg", in: "set") == "set/../a.jpg")
    #expect(PathRules.resolve("/p/a.jpg", in: "set") == "/p/a.jpg")
    #expect(PathRules.resolve("a.jpg", in: "/") == "/a.jpg")
    #expect(PathRules.folder(of: "/m.json") == "/" && PathRules.folder(of: "a/b/m.json") == "a/b")
  }
}
