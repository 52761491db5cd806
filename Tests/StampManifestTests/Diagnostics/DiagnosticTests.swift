import Testing

@testable import StampManifest

struct DiagnosticTests {
  @Test func descriptionsReadLikeCompilerMessages() {
    let full = Diagnostic(file: "m.json", line: 12, path: "jobs[3].stamps[0].centre", message: "unknown key")
    #expect(full.description == "m.json:12: jobs[3].stamps[0].centre: unknown key")
    #expect(
      Diagnostic(file: "m.json", line: 3, column: 7, message: "invalid json").description == "m.json:3:7: invalid json")
    #expect(Diagnostic(file: "m.json", message: "cannot read").description == "m.json: cannot read")
    let error = ManifestError([full, Diagnostic(file: "m.json", message: "x")])
    #expect(error.description == "m.json:12: jobs[3].stamps[0].centre: unknown key\nm.json: x")
  }
}
