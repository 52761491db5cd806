import Foundation
import StampCore
import StampManifest
import StampTestFolders
import StampTestSupport
import Testing

@testable import StampBatch

/// A folder of generated inputs and a manifest, for end-to-end batch runs.
typealias Workspace = TestFolder

extension TestFolder {
  /// The jobs of the manifest `name` in this folder.
  func jobs(_ manifest: String) throws -> [JobEntry] {
    try ManifestDecoder().decode(contentsOf: URL(fileURLWithPath: path(manifest))).jobs
  }
}

@Suite("Batch runs: failure isolation, safe outputs")
struct BatchRunnerTests {
  /// A job whose photo is missing fails alone, naming the file; the other jobs are written.
  @Test func aMissingPhotoFailsOnlyItsJob() throws {
    let w = try Workspace()
    defer { w.remove() }
    try w.ppm("photo.ppm", width: 40, height: 30, rgb: [10, 20, 30])
    try w.ppm("stamp.ppm", width: 8, height: 8, rgb: [250, 0, 0])
    try w.write(
      "m.json",
      """
      {"version": 1, "jobs": [
        {"id": "a", "base": "photo.ppm", "output": "a.png", "stamps": [{"id": "s", "image": "stamp.ppm", "center": [20, 15]}]},
        {"id": "b", "base": "nowhere.jpg", "output": "b.png"},
        {"id": "c", "base": "photo.ppm", "output": "sub/c.png"}
      ]}
      """)
    let out = w.path("out")
    let outcomes = try BatchRunner(options: BatchOptions(outputFolder: out, concurrency: 2)).run(try w.jobs("m.json"))
    #expect(outcomes.map(\.status) == [.ok, .failed, .ok])
    #expect(outcomes[1].error?.contains("nowhere.jpg") == true)
    #expect(FileManager.default.fileExists(atPath: out + "/a.png"))
    #expect(FileManager.default.fileExists(atPath: out + "/sub/c.png"))
    #expect(Summary(outcomes, seconds: 0).failed == 1)
  }

  /// An output folder that is a symbolic link to somewhere else is refused: the real path decides.
  @Test func outputsThroughASymlinkOutsideTheFolderAreRefused() throws {
    let w = try Workspace()
    defer { w.remove() }
    try w.ppm("photo.ppm", width: 4, height: 4, rgb: [1, 2, 3])
    try FileManager.default.createDirectory(atPath: w.path("out"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: w.path("elsewhere"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: w.path("out/escape"), withDestinationPath: w.path("elsewhere"))
    try w.write("m.json", #"{"version": 1, "jobs": [{"id": "a", "base": "photo.ppm", "output": "escape/a.png"}]}"#)
    let outcomes = try BatchRunner(options: BatchOptions(outputFolder: w.path("out"))).run(try w.jobs("m.json"))
    #expect(outcomes.first?.status == .failed)
    #expect(outcomes.first?.error?.contains("outside --out") == true)
    #expect(try FileManager.default.contentsOfDirectory(atPath: w.path("elsewhere")).isEmpty)
  }

  /// An output that names an input file is refused rather than overwriting the photo.
  @Test func anOutputNeverOverwritesAnInput() throws {
    let w = try Workspace()
    defer { w.remove() }
    try w.ppm("photo.png.ppm", width: 4, height: 4, rgb: [1, 2, 3])
    let out = w.path("out")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: w.path("photo.png.ppm"), toPath: out + "/in.ppm")
    try w.ppm("dummy.ppm", width: 1, height: 1, rgb: [0, 0, 0])
    try w.write("m.json", #"{"version": 1, "jobs": [{"id": "a", "base": "out/in.ppm", "output": "in.ppm"}]}"#)
    let outcomes = try BatchRunner(options: BatchOptions(outputFolder: out)).run(try w.jobs("m.json"))
    #expect(outcomes.first?.status == .failed)
    #expect(outcomes.first?.error?.contains("overwrite an input") == true)
  }

  /// A JPEG drawn on losslessly, the same JPEG written as PNG, and a copy with a zero in a quantization table
  /// (libjpeg's encoder would divide by it): the report names each job's path and the fallback, and the summary
  /// counts the fallback by its reason.
  @Test func theReportNamesEachJobsPathAndTheSummaryCountsFallbacks() throws {
    let w = try Workspace()
    defer { w.remove() }
    try w.ppm("photo.ppm", width: 48, height: 32, rgb: [120, 90, 60])
    try w.write("first.json", #"{"version": 1, "jobs": [{"id": "p", "base": "photo.ppm", "output": "photo.jpg"}]}"#)
    let first = try BatchRunner(options: BatchOptions(outputFolder: w.path("in"))).run(try w.jobs("first.json"))
    #expect(first.map(\.path) == ["pixels"] && first.map(\.fallback) == [nil])
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: w.path("in/photo.jpg"))))
    let dqt = try #require(bytes.indices.dropLast().first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDB })
    bytes[dqt + 4 + 63] = 0
    try Data(bytes).write(to: URL(fileURLWithPath: w.path("in/zero.jpg")))
    try w.write(
      "m.json",
      """
      {"version": 1, "jobs": [
        {"id": "a", "base": "in/photo.jpg", "output": "a.jpg"},
        {"id": "b", "base": "in/photo.jpg", "output": "b.png"},
        {"id": "c", "base": "in/zero.jpg", "output": "c.jpg"}
      ]}
      """)
    let outcomes = try BatchRunner(options: BatchOptions(outputFolder: w.path("out"))).run(try w.jobs("m.json"))
    #expect(outcomes.map(\.status) == [.ok, .ok, .ok])
    #expect(outcomes.map(\.path) == ["spliced", "pixels", "pixels"])
    #expect(outcomes.map(\.fallback) == [nil, nil, "quantization"])
    #expect(
      outcomes[2].jsonLine.hasSuffix(#""path": "pixels", "fallback": "quantization"}"#), "\(outcomes[2].jsonLine)")
    #expect(outcomes[0].jsonLine.hasSuffix(#""path": "spliced", "fallback": null}"#), "\(outcomes[0].jsonLine)")
    #expect(Summary(outcomes).fallbackLine == "1 job fell back from the lossless JPEG path to pixels: 1 quantization")
    #expect(Summary(Array(outcomes.prefix(2))).fallbackLine == nil)
  }

  @Test func summaryCountsFallbacksByReasonMostFirst() {
    var outcomes = ["damaged: Corrupt JPEG data", "colour-space", "damaged: Premature end"].map { fallback in
      var outcome = JobOutcome(id: "a", status: .ok, outputs: ["a.jpg"], error: nil, seconds: 1)
      outcome.fallback = fallback
      return outcome
    }
    outcomes.append(JobOutcome(id: "b", status: .ok, outputs: ["b.jpg"], error: nil, seconds: 1))
    #expect(
      Summary(outcomes).fallbackLine
        == "3 jobs fell back from the lossless JPEG path to pixels: 2 damaged, 1 colour-space")
  }

  @Test func summaryLineCountsEveryStatus() {
    let outcomes = [
      JobOutcome(id: "a", status: .ok, outputs: ["a.jpg"], error: nil, seconds: 1),
      JobOutcome(id: "b", status: .failed, outputs: [], error: "x", seconds: 1),
    ]
    #expect(Summary(outcomes, seconds: 1.5).line == "2 jobs: 1 written, 1 failed, 0 skipped in 1.50 s")
  }
}

extension BatchRunnerTests {
  /// A job past --job-timeout is stopped through libvips and fails alone, leaving no file: here a photo whose
  /// header claims 9999 x 9999 pixels over 16 x 16 of data, which `--fail-on none` renders (slowly, in grey).
  @Test func aJobPastItsTimeoutIsStoppedAndFailsAlone() throws {
    let w = try Workspace()
    defer { w.remove() }
    try w.ppm("photo.ppm", width: 16, height: 16, rgb: [10, 20, 30])
    var bytes = try w.jpeg("slow.jpg", width: 16, height: 16, rgb: [90, 90, 90])
    let frame = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
    // Its header says 20000 x 20000 (400 megapixels, allowed below): decoded and written as PNG, about 2.8 s alone.
    // At 9999 x 9999 it took 0.77 s, too close to the limit on a quiet machine.
    bytes.replaceSubrange(frame + 5..<frame + 9, with: [0x4E, 0x20, 0x4E, 0x20])
    try w.write("slow.jpg", bytes: bytes)
    try w.write(
      "m.json",
      """
      {"version": 1, "jobs": [{"id": "slow", "base": "slow.jpg", "output": "slow.png"},
        {"id": "good", "base": "photo.ppm", "output": "good.png"}]}
      """)
    var options = BatchOptions(outputFolder: w.path("out"), concurrency: 2, maxPixels: 500_000_000)
    options.inputs.failOn = .none
    options.jobTimeout = 0.5
    let start = Date()
    let outcomes = try BatchRunner(options: options).run(try w.jobs("m.json"))
    #expect(Date().timeIntervalSince(start) < 10)
    #expect(outcomes.map(\.status) == [.failed, .ok])
    // The job and its limit are named, not the photo it was reading ("slow.jpg: the job was stopped").
    #expect(outcomes[0].error == "job \"slow\": the job was stopped after 0.5 s (--job-timeout)")
    #expect(w.files("out") == ["good.png"])
  }
}

extension BatchRunnerTests {
  /// A private 0600 photo came out as a 0644 output. Outputs now take the umask's default but never a permission
  /// their photo lacks, on both render paths.
  @Test func aPrivatePhotoGivesPrivateOutputs() throws {
    let w = try Workspace()
    defer { w.remove() }
    try w.ppm("photo.png", width: 16, height: 16, rgb: [10, 20, 30])
    try w.jpeg("photo.jpg", width: 16, height: 16, rgb: [10, 20, 30])
    try w.ppm("open.png", width: 16, height: 16, rgb: [10, 20, 30])
    #expect(chmod(w.path("photo.png"), 0o600) == 0 && chmod(w.path("photo.jpg"), 0o640) == 0)
    #expect(chmod(w.path("open.png"), 0o644) == 0)
    try w.write(
      "m.json",
      """
      {"version": 1, "jobs": [{"id": "a", "base": "photo.png", "output": "a.png", "overlay": true},
        {"id": "b", "base": "photo.jpg", "output": "b.jpg"}, {"id": "c", "base": "open.png", "output": "c.png"}]}
      """)
    let out = w.path("out")
    let outcomes = try BatchRunner(options: BatchOptions(outputFolder: out, concurrency: 2)).run(try w.jobs("m.json"))
    #expect(outcomes.map(\.status) == [.ok, .ok, .ok])
    func mode(_ name: String) throws -> Int {
      try #require(try FileManager.default.attributesOfItem(atPath: out + "/" + name)[.posixPermissions] as? Int)
    }
    #expect(try mode("a.png") & 0o077 == 0 && mode("a.overlay.png") & 0o077 == 0)
    #expect(try mode("b.jpg") & ~0o640 == 0)
    #expect(try mode("c.png") & 0o600 == 0o600, "an open photo's output keeps the umask's default")
  }
}
