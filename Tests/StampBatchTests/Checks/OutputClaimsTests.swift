import Foundation
import StampFiles
import StampManifest
import StampRender
import StampSystem
import StampTestFolders
import StampTestSupport
import Testing

@testable import StampBatch

@Suite("Output claims: files compared as files")
struct OutputClaimsTests {
  /// Files not yet written are the real path of their deepest existing folder plus the rest: a name through a
  /// linked folder and a name with `..` lead to the same identity as the plain one.
  @Test func namesOfOneFileThatDoesNotExistYetAgree() throws {
    let w = try TestFolder()
    defer { w.remove() }
    try FileManager.default.createDirectory(atPath: w.path("d1"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: w.path("d2"), withDestinationPath: "d1")
    let plain = OutputClaims.identity(of: w.path("d1/new/x.png"))
    #expect(OutputClaims.identity(of: w.path("d2/new/x.png")) == plain)
    #expect(OutputClaims.identity(of: w.path("d1/new/../new/./x.png")) == plain)
    #expect(OutputClaims.identity(of: w.path("d1/new/y.png")) != plain)
  }

  /// An existing file is its device and inode: a hard link to an input is that input.
  @Test func aHardLinkIsTheSameFile() throws {
    let w = try TestFolder()
    defer { w.remove() }
    try w.write("photo.ppm", "x")
    try FileManager.default.createDirectory(atPath: w.path("out"), withIntermediateDirectories: true)
    try FileManager.default.linkItem(atPath: w.path("photo.ppm"), toPath: w.path("out/a.png"))
    let jobs = [
      JobEntry(id: "r", base: w.path("photo.ppm"), output: "other.png", index: 0),
      JobEntry(id: "w", base: w.path("photo.ppm"), output: "a.png", index: 1, line: 7),
    ]
    let claims = try OutputClaims(
      out: w.path("out"), manifest: w.path("m.json"), file: "m.json", report: nil,
      naming: { jobs.indices.contains($0) ? jobs[$0] : nil })
    #expect(claims.add(jobs[0], overlayForEveryJob: false).isEmpty)
    let found = claims.add(jobs[1], overlayForEveryJob: false)
    #expect(found.map(\.path) == ["jobs[1].output"])
    #expect(found.first?.line == 7)
    #expect(
      found.first?.message
        == #"jobs[1].output of job "w" would overwrite jobs[0].base of job "r": they are the same file"#)
    #expect(claims.protected == [try #require(FileIdentity(path: w.path("photo.ppm")))])
  }

  /// A claim is held in 64 bits: its role, its field (a stamp by its place) and its job's place come back as given.
  @Test(arguments: [
    OutputClaims.Claim(role: .input, index: 7, position: 123_456_789, field: .stamp(999)),
    OutputClaims.Claim(role: .output, index: 0, position: 0, field: .viewOutput),
    OutputClaims.Claim(role: .report, index: -1, position: 5, field: .none),
    OutputClaims.Claim(role: .input, index: 2, position: 1 << 45, field: .base),
    OutputClaims.Claim(role: .events, index: -1, position: 9, field: .none),
    OutputClaims.Claim(role: .output, index: 1, position: (1 << 46) - 1, field: .stamp(32_762)),
  ])
  func aClaimHeldInSixtyFourBitsKeepsItsRoleFieldAndPlace(_ claim: OutputClaims.Claim) {
    let held = OutputClaims.Claim(packed: claim.packed)
    #expect(held.role == claim.role)
    #expect(held.field == claim.field)
    #expect(held.position == claim.position)
    #expect(held.index == -1)
  }

  /// The claims hold a hash of each file and the place of the job claiming it, not its path or id: among 5,000
  /// jobs, an output that is an early job's photo is told naming both jobs, the earlier made again from the
  /// manifest; without a way to make it again, it is told by its place.
  @Test func aClashAmongManyJobsNamesBothJobs() throws {
    let w = try TestFolder()
    defer { w.remove() }
    try w.write("photo.ppm", "x")
    try FileManager.default.createDirectory(atPath: w.path("out"), withIntermediateDirectories: true)
    var jobs = (0..<5000).map { k in
      JobEntry(id: "p\(k)", base: w.path("photos/p\(k).jpg"), output: "o/p\(k).jpg", index: k)
    }
    jobs[3].base = w.path("photo.ppm")
    jobs[4999].output = "../photo.ppm"
    var asked: [Int] = []
    for naming in [true, false] {
      let claims = try OutputClaims(
        out: w.path("out"), manifest: w.path("m.json"), file: "m.json", report: nil,
        naming: naming
          ? {
            asked.append($0); return jobs[$0]
          } : nil)
      let found = jobs.flatMap { claims.add($0, overlayForEveryJob: false) }
      let earlier = naming ? #"jobs[3].base of job "p3""# : "base of the job made at place 3"
      #expect(
        found.map(\.message) == [
          #"jobs[4999].output of job "p4999" would overwrite "# + earlier + ": they are the same file"
        ])
    }
    #expect(asked == [3])
  }

  /// A job whose second output cannot be put in place leaves neither: its first output is not renamed either.
  @Test func aJobsOutputsAppearTogetherOrNotAtAll() throws {
    let w = try TestFolder()
    defer { w.remove() }
    try w.ppm("photo.ppm", width: 8, height: 8, rgb: [1, 2, 3])
    // A folder where the overlay should go: its temporary is written, but it cannot replace a folder.
    try FileManager.default.createDirectory(atPath: w.path("out/a.overlay.png"), withIntermediateDirectories: true)
    try w.write(
      "m.json", #"{"version": 1, "jobs": [{"id": "a", "base": "photo.ppm", "output": "a.png", "overlay": true}]}"#)
    let outcomes = try BatchRunner(options: BatchOptions(outputFolder: w.path("out"))).run(try w.jobs("m.json"))
    #expect(outcomes.first?.status == .failed)
    #expect(outcomes.first?.error?.contains("a.overlay.png: cannot write: is a folder") == true)
    #expect(w.files("out").isEmpty)
  }
}
