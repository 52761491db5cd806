import StampCore
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
    #expect(PathRules.problem(withOutput: given)?.contains("must not be in .stampcam/") == true)
  }

  @Test(arguments: ["a/.stampcam/x.png", ".stampcamx/y.png", ".stampcam.png"])
  func otherNamesLikeStampcamsFolderAreOutputs(_ given: String) {
    #expect(PathRules.problem(withOutput: given) == nil)
  }
}

/// Paths are bytes: split at the byte `/` and compared byte for byte, as Linux names files.
struct PathBytesTests {
  /// U+0301 (a combining acute accent) after a `/` makes one Swift Character of the two, so a Character split kept
  /// `../\u{301}d/x.png` as one harmless component and `/\u{301}tmp` as a relative path; the kernel sees `..` and
  /// `/` (render wrote `\u{301}d/x.png` beside --out, and would have written to `/\u{301}tmp`).
  @Test(arguments: ["../\u{301}d/x.png", "a/../\u{301}../x.png", "/\u{301}tmp/x.png", "x/\u{301}/../../y.png"])
  func aCombiningMarkAfterASlashHidesNothing(_ given: String) {
    #expect(PathRules.problem(withOutput: given) != nil)
  }

  @Test func componentsSplitAtTheSlashByte() {
    #expect(PathRules.components("a/\u{301}b//c").map { Array($0.utf8) } == [[0x61], [0xCC, 0x81, 0x62], [0x63]])
    #expect(PathRules.isAbsolute("/\u{301}tmp"))
    #expect(PathRules.normalize("./\u{301}/./x.png") == "\u{301}/x.png")
    // The overlay goes beside the output's name, not before a dot in a folder's name.
    #expect(PathRules.overlay(of: "a.b/\u{301}c").utf8.elementsEqual("a.b/\u{301}c.overlay".utf8))
    #expect(PathRules.folder(of: "set/\u{301}m.json") == "set")
  }

  /// At most 64 components (folders and the name): 64 pass, 65 and 20,000 do not, and the message gives both counts.
  @Test func outputPathsHaveAtMost64Components() {
    let deep = { (n: Int) in Array(repeating: "d", count: n - 1).joined(separator: "/") + "/x.jpg" }
    #expect(Limits().maxOutputComponents == 64)
    #expect(PathRules.problem(withOutput: deep(64)) == nil)
    #expect(
      PathRules.problem(withOutput: deep(65)) == "has 65 components; at most 64 (folders nested deeper are refused)")
    #expect(PathRules.problem(withOutput: deep(20_000))?.hasPrefix("has 20000 components") == true)
    // `.` and empty components are not folders: 64 names with `./` between them are still 64.
    #expect(
      PathRules.problem(withOutput: "./" + Array(repeating: "d", count: 63).joined(separator: "/./") + "/./x.jpg")
        == nil)
  }
}
