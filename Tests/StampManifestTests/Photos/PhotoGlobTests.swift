import Testing

@testable import StampManifest

/// `PhotoGlob`: the pattern language on bytes, its root, and the mistakes it names.
struct PhotoGlobTests {
  /// A pattern, a path from the manifest's folder, and whether the path matches.
  struct MatchCase: CustomTestStringConvertible, Sendable {
    var pattern: String
    var path: String
    var matches: Bool
    var ignoreCase = false

    var testDescription: String {
      "\(pattern) \(matches ? "matches" : "does not match") \(path)\(ignoreCase ? " ignoring case" : "")"
    }
  }

  static let matchCases: [MatchCase] = [
    // `*`: any bytes, none too, never a "/".
    MatchCase(pattern: "*.jpg", path: "a.jpg", matches: true),
    MatchCase(pattern: "*.jpg", path: ".x.jpg", matches: false),
    MatchCase(pattern: "*.jpg", path: "a.png", matches: false),
    MatchCase(pattern: "*.jpg", path: "b/a.jpg", matches: false),
    MatchCase(pattern: "a*b", path: "ab", matches: true),
    MatchCase(pattern: "*a*b", path: "aaab", matches: true),
    MatchCase(pattern: "*.jpg", path: "a.jpg.jpg", matches: true),
    MatchCase(pattern: "a*b*c", path: "acb", matches: false),
    MatchCase(pattern: "in/*/x.jpg", path: "in/a/x.jpg", matches: true),
    MatchCase(pattern: "in/*/x.jpg", path: "in/a/b/x.jpg", matches: false),
    // `?`: exactly one byte.
    MatchCase(pattern: "?.jpg", path: "a.jpg", matches: true),
    MatchCase(pattern: "?.jpg", path: "ab.jpg", matches: false),
    MatchCase(pattern: "?.jpg", path: ".jpg", matches: false),
    // Sets.
    MatchCase(pattern: "[a-c].jpg", path: "b.jpg", matches: true),
    MatchCase(pattern: "[a-c].jpg", path: "d.jpg", matches: false),
    MatchCase(pattern: "[a-cx].jpg", path: "x.jpg", matches: true),
    MatchCase(pattern: "[!a].jpg", path: "b.jpg", matches: true),
    MatchCase(pattern: "[!a].jpg", path: "a.jpg", matches: false),
    MatchCase(pattern: "[^a].jpg", path: "a.jpg", matches: false),
    MatchCase(pattern: "[]x].jpg", path: "].jpg", matches: true),
    MatchCase(pattern: "[]x].jpg", path: "x.jpg", matches: true),
    MatchCase(pattern: "[]x].jpg", path: "y.jpg", matches: false),
    MatchCase(pattern: "[!]].jpg", path: "].jpg", matches: false),
    MatchCase(pattern: "[a-].jpg", path: "-.jpg", matches: true),
    // Escapes.
    MatchCase(pattern: "\\*.jpg", path: "*.jpg", matches: true),
    MatchCase(pattern: "\\*.jpg", path: "a.jpg", matches: false),
    MatchCase(pattern: "a\\?", path: "a?", matches: true),
    MatchCase(pattern: "a\\?", path: "ab", matches: false),
    MatchCase(pattern: "\\[a]", path: "[a]", matches: true),
    MatchCase(pattern: "[\\]]", path: "]", matches: true),
    // `**` at the start and in the middle: zero or more folders, never hidden ones.
    MatchCase(pattern: "**/*.jpg", path: "x.jpg", matches: true),
    MatchCase(pattern: "**/*.jpg", path: "a/b/c.jpg", matches: true),
    MatchCase(pattern: "**/*.jpg", path: ".h/x.jpg", matches: false),
    MatchCase(pattern: "**/*.jpg", path: "a/.h/x.jpg", matches: false),
    MatchCase(pattern: "**/.h/*.jpg", path: "a/.h/x.jpg", matches: true),
    MatchCase(pattern: ".h/*.jpg", path: ".h/x.jpg", matches: true),
    MatchCase(pattern: "a/**/b/*.jpg", path: "a/b/x.jpg", matches: true),
    MatchCase(pattern: "a/**/b/*.jpg", path: "a/q/r/b/x.jpg", matches: true),
    MatchCase(pattern: "a/**/b/*.jpg", path: "a/q/x.jpg", matches: false),
    MatchCase(pattern: "a/**/b/*.jpg", path: "a/b/q/x.jpg", matches: false),
    MatchCase(pattern: "a/**/**/b/*.jpg", path: "a/b/x.jpg", matches: true),
    // Case.
    MatchCase(pattern: "*.JPG", path: "a.jpg", matches: false),
    MatchCase(pattern: "*.JPG", path: "a.jpg", matches: true, ignoreCase: true),
    MatchCase(pattern: "[A-C].jpg", path: "b.jpg", matches: true, ignoreCase: true),
    MatchCase(pattern: "[!a].jpg", path: "A.jpg", matches: false, ignoreCase: true),
    MatchCase(pattern: "\u{E9}.jpg", path: "\u{C9}.jpg", matches: false, ignoreCase: true),
    // Bytes, not characters: "e" + U+0301 is three bytes, "é" (NFC) two.
    MatchCase(pattern: "?.jpg", path: "e\u{301}.jpg", matches: false),
    MatchCase(pattern: "???.jpg", path: "e\u{301}.jpg", matches: true),
    MatchCase(pattern: "?.jpg", path: "\u{E9}.jpg", matches: false),
    MatchCase(pattern: "??.jpg", path: "\u{E9}.jpg", matches: true),
    MatchCase(pattern: "\u{E9}.jpg", path: "e\u{301}.jpg", matches: false),
    MatchCase(pattern: "e\u{301}.jpg", path: "e\u{301}.jpg", matches: true),
    // Hidden names: only a leading `*` or `?` is kept from them.
    MatchCase(pattern: "*", path: ".a", matches: false),
    MatchCase(pattern: "?a", path: ".a", matches: false),
    MatchCase(pattern: ".*", path: ".a", matches: true),
    MatchCase(pattern: "in/*", path: "in/.a", matches: false),
  ]

  @Test(arguments: matchCases)
  func matching(_ test: MatchCase) throws {
    let glob = try PhotoGlob(test.pattern, ignoreCase: test.ignoreCase)
    // matches() takes the path under the root.
    let prefix = glob.root.isEmpty ? "" : glob.root + "/"
    try #require(test.path.hasPrefix(prefix))
    #expect(glob.matches(Array(test.path.utf8.dropFirst(prefix.utf8.count))) == test.matches)
  }

  @Test func ignoreCaseCanBeChangedAfterCompiling() throws {
    var glob = try PhotoGlob("*.JPG")
    #expect(!glob.matches("a.jpg".utf8))
    glob.ignoreCase = true
    #expect(glob.matches("a.jpg".utf8))
  }

  @Test func aPathWithEmptyComponentsOrNothingMatchesNothing() throws {
    let glob = try PhotoGlob("**/*.jpg")
    #expect(!glob.matches("".utf8))
    #expect(!glob.matches("a//x.jpg".utf8))
    #expect(!glob.matches("a/".utf8))
  }

  @Test(arguments: [
    ("in/2024/**/*.jpg", "in/2024"),
    ("*.jpg", ""),
    ("**/*.jpg", ""),
    ("in/a.jpg", "in"),
    ("a.jpg", ""),
    ("/data/*.jpg", "/data"),
    ("/*.jpg", "/"),
    ("./in//x/./*.jpg", "in/x"),
    ("in/[ab]/x/*.jpg", "in"),
    ("a\\*b/c/*.jpg", ""),
    ("in/**/x/*.jpg", "in"),
  ])
  func root(_ pattern: String, _ root: String) throws {
    #expect(try PhotoGlob(pattern).root == root)
  }

  @Test func theRootIsNotMatchedAgain() throws {
    let glob = try PhotoGlob("in/2024/*.jpg")
    #expect(glob.matches("a.jpg".utf8))
    #expect(!glob.matches("in/2024/a.jpg".utf8))
  }

  static let foldersOnly = "the pattern names folders only (end it with a file name pattern, such as *.jpg)"

  @Test(arguments: [
    ("", "an empty pattern"),
    ("in/[ab.jpg", "unclosed '[' at byte 4"),
    ("in/2024[", "unclosed '[' at byte 8"),
    ("[]", "unclosed '[' at byte 1"),
    ("[!]", "unclosed '[' at byte 1"),
    ("in/../x.jpg", "'..' is not allowed in a photo glob"),
    ("..", "'..' is not allowed in a photo glob"),
    ("a/\\.\\./x.jpg", "'..' is not allowed in a photo glob"),
    ("in/", foldersOnly),
    ("/", foldersOnly),
    ("in/**", foldersOnly),
    ("**", foldersOnly),
    ("in/.", foldersOnly),
    ("a**.jpg", "'**' at byte 2 must be a whole component, as in in/**/*.jpg"),
    ("a\\", "'\\' at byte 2 escapes nothing (a '\\' before '/' or at the end of the pattern)"),
    ("a\\/b.jpg", "'\\' at byte 2 escapes nothing (a '\\' before '/' or at the end of the pattern)"),
    ("x/[z-a].jpg", "the range 'z-a' at byte 4 is empty (its first byte is after its last)"),
    ("a\u{0}.jpg", "a NUL byte at byte 2"),
  ])
  func syntaxError(_ pattern: String, _ message: String) {
    #expect(throws: PhotoGlob.SyntaxError(message)) { try PhotoGlob(pattern) }
    do {
      _ = try PhotoGlob(pattern)
    } catch {
      #expect(error.description == message)
    }
  }
}
