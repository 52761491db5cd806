import StampCore
import Testing

@testable import StampManifest

struct PathRulesTests {
  @Test(arguments: [("a.jpg", "a.jpg"), ("./a//b/./c.png", "a/b/c.png"), ("x/y.webp", "x/y.webp")])
  func outputsAreNormalized(_ given: String, _ normalized: String) {
    #expect(PathRules.refusal(ofOutput: given) == nil)
    #expect(PathRules.normalize(given) == normalized)
  }

  @Test(arguments: ["/abs.jpg", "../a.jpg", "a/../../b.jpg", "a/..", ".", "a/", "./"])
  func outputsThatLeaveOutOrNameAFolderAreRefused(_ given: String) {
    #expect(PathRules.refusal(ofOutput: given)?.description != nil)
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
    #expect(PathRules.refusal(ofOutput: given)?.description.contains("must not be in .stampcam/") == true)
  }

  @Test(arguments: ["a/.stampcam/x.png", ".stampcamx/y.png", ".stampcam.png"])
  func otherNamesLikeStampcamsFolderAreOutputs(_ given: String) {
    #expect(PathRules.refusal(ofOutput: given) == nil)
  }

  /// Each rule has its own reason, whatever the words: render and the decoder tell the same rule the same way.
  @Test(arguments: [
    ("/etc/x.jpg", PathRules.Refusal.absolute(path: "/etc/x.jpg")), ("a/../x.jpg", .parent), ("a/", .notAFile),
    ("a/.", .notAFile), ("", .notAFile), (".stampcam/x.jpg", .inRecordsFolder),
    ("./.stampcam//x.jpg", .inRecordsFolder),
  ])
  func eachRuleHasItsReason(_ path: String, _ reason: PathRules.Refusal) {
    #expect(PathRules.refusal(ofOutput: path) == reason)
    #expect(PathRules.renderRefusal(ofOutput: path) == reason)
  }

  /// 255 bytes a name, less the 43 its temporary name adds: 212 bytes pass, 213 do not, in a folder's name too; the
  /// decoder leaves the names to the checks made before a run, render checks them all.
  @Test func namesLeaveRoomForTheTemporarySuffix() {
    let longest = String(repeating: "n", count: 208) + ".jpg"
    #expect(PathRules.longestName == 212)
    #expect(PathRules.longName(in: "d/" + longest) == nil)
    let folder = String(repeating: "f", count: 213)
    #expect(PathRules.longName(in: folder + "/a.jpg") == .nameTooLong(name: folder))
    #expect(PathRules.refusal(ofOutput: folder + "/a.jpg") == nil)
    #expect(PathRules.renderRefusal(ofOutput: folder + "/a.jpg") == .nameTooLong(name: folder))
    #expect(
      PathRules.Refusal.nameTooLong(name: folder).description
        == "\"\(String(repeating: "f", count: 40))...\": a name of 213 bytes is too long (at most 212, leaving room for "
        + "the temporary file's suffix)")
  }
}

/// Paths are bytes: split at the byte `/` and compared byte for byte, as Linux names files.
struct PathBytesTests {
  /// U+0301 (a combining acute accent) after a `/` makes one Swift Character of the two, so a Character split kept
  /// `../\u{301}d/x.png` as one harmless component and `/\u{301}tmp` as a relative path; the kernel sees `..` and
  /// `/` (render wrote `\u{301}d/x.png` beside --out, and would have written to `/\u{301}tmp`).
  @Test(arguments: ["../\u{301}d/x.png", "a/../\u{301}../x.png", "/\u{301}tmp/x.png", "x/\u{301}/../../y.png"])
  func aCombiningMarkAfterASlashHidesNothing(_ given: String) {
    #expect(PathRules.refusal(ofOutput: given)?.description != nil)
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
    #expect(PathRules.refusal(ofOutput: deep(64)) == nil)
    #expect(PathRules.refusal(ofOutput: deep(65)) == .tooDeep(components: 65, limit: 64))
    #expect(
      PathRules.refusal(ofOutput: deep(65))?.description
        == "has 65 components; at most 64 (folders nested deeper are refused)")
    #expect(PathRules.refusal(ofOutput: deep(20_000)) == .tooDeep(components: 20_000, limit: 64))
    // `.` and empty components are not folders: 64 names with `./` between them are still 64.
    #expect(
      PathRules.refusal(ofOutput: "./" + Array(repeating: "d", count: 63).joined(separator: "/./") + "/./x.jpg") == nil)
  }
}
