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

  /// A manifest could write its outputs over `--resume`'s records and claims in `--out/.stampcam`. Now an output
  /// there is refused, however it is spelled; a `.stampcam` deeper down, or a name that only starts so, is not it.
  @Test(arguments: [".stampcam/r.png", "./.stampcam/x.png", ".stampcam//a/b.png"])
  func outputsInStampcamsOwnFolderAreRefused(_ given: String) {
    #expect(PathRules.problem(withOutput: given)?.contains("must not go in .stampcam") == true)
  }

  @Test(arguments: ["a/.stampcam/x.png", ".stampcamx/y.png", ".stampcam.png"])
  func otherNamesLikeStampcamsFolderAreOutputs(_ given: String) {
    #expect(PathRules.problem(withOutput: given) == nil)
  }
}
