import Foundation
import Testing

/// The README's promise: a manifest that validates fails in render only for a reason that needs pixels or --out.
/// Each case here passed validate and then failed in render (or made what it should not); now validate refuses it,
/// and render refuses it as well, with the same words, before decoding anything.
@Suite("validate refuses what render refuses")
struct ValidateRenderAgreementTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var jobs: [String]
    /// Options given to both commands.
    var options: [String] = []
    /// Render's status: 2 when the manifest is refused whole, 1 when the job fails (after reading its header).
    var renderStatus: Int32 = 2
    var words: [String]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "an output named as another job's overlay",
      jobs: [
        #"{"id": "a", "base": "photo.png", "output": "a.png", "overlay": true}"#,
        #"{"id": "b", "base": "photo.png", "output": "a.overlay.png"}"#,
      ], words: [#"jobs[1].output: "a.overlay.png" of job "b" is also written by jobs[0] (job "a"): the same file"#]),
    Case(
      name: "an output named as a later job's overlay",
      jobs: [
        #"{"id": "b", "base": "photo.png", "output": "a.overlay.png"}"#,
        #"{"id": "a", "base": "photo.png", "output": "a.png", "overlay": true}"#,
      ], words: [#"jobs[1].output: its overlay "a.overlay.png" of job "a" is also written by jobs[0] (job "b")"#]),
    Case(
      name: "an output named as another job's overlay with --overlay",
      jobs: [
        #"{"id": "a", "base": "photo.png", "output": "a.png"}"#,
        #"{"id": "b", "base": "photo.png", "output": "a.overlay.png"}"#,
      ], options: ["--overlay"],
      words: [#"jobs[1].output: "a.overlay.png" of job "b" is also written by jobs[0] (job "a"): the same file"#]),
    Case(
      name: "an output that another output needs as a folder",
      jobs: [
        #"{"id": "a", "base": "photo.png", "output": "d.png/x.png"}"#,
        #"{"id": "b", "base": "photo.png", "output": "d.png"}"#,
      ], words: [#"jobs[1].output: "d.png" of job "b" is a folder that an output of jobs[0] (job "a") lies in"#]),
    Case(
      name: "an output under another output",
      jobs: [
        #"{"id": "a", "base": "photo.png", "output": "d.png"}"#,
        #"{"id": "b", "base": "photo.png", "output": "./d.png//e/x.png"}"#,
      ],
      words: [#"jobs[1].output: "d.png/e/x.png" of job "b" needs "d.png" as a folder, but jobs[0] (job "a") writes it"#]
    ),
    Case(
      name: "a view output under the job's own output",
      jobs: [#"{"id": "a", "base": "photo.png", "output": "v/a.png", "viewOutput": "v/a.png/view.png"}"#],
      words: [#"jobs[0].viewOutput: "v/a.png/view.png" of job "a" needs "v/a.png" as a folder, but this job writes it"#]
    ),
    Case(
      name: "an output 65 components deep",
      jobs: [#"{"id": "a", "base": "photo.png", "output": "\#(String(repeating: "d/", count: 64))x.png"}"#],
      words: ["jobs[0].output: has 65 components; at most 64"]),
    Case(
      name: "an output among the resume records",
      jobs: [#"{"id": "a", "base": "photo.png", "output": "./.stampcam/0123456789abcdef0123456789abcdef"}"#],
      words: ["jobs[0].output: must not be in .stampcam/, where render keeps its resume records"]),
    Case(
      name: "a view too small to draw on",
      jobs: [
        #"{"id": "a", "base": "photo.png", "output": "a.png", "viewOutput": "v.png", "view": {"width": 1, "height": 1}}"#
      ],
      words: ["jobs[0].view.width: 1 is too small (at least 16)", "jobs[0].view.height: 1 is too small (at least 16)"]),
    Case(
      name: "a photo taller than JPEG holds",
      jobs: [#"{"id": "a", "base": "tall.png", "output": "a.jpg"}"#], renderStatus: 1,
      words: ["a.jpg: it would be 1 x 65501 pixels, and JPEG holds at most 65500 pixels a side"]),
    Case(
      name: "a photo wider than WebP holds",
      jobs: [#"{"id": "a", "base": "wide.png", "output": "a.webp"}"#], renderStatus: 1,
      words: ["a.webp: it would be 16384 x 1 pixels, and WebP holds at most 16383 pixels a side"]),
    Case(
      name: "a view output taller than WebP holds",
      jobs: [
        #"{"id": "a", "base": "photo.png", "output": "a.png", "viewOutput": "v.webp", "view": {"width": 16, "height": 8192, "screenScale": 2}}"#
      ], renderStatus: 1,
      words: ["v.webp: it would be 32 x 16384 pixels, and WebP holds at most 16383 pixels a side"]),
  ]

  @Test(arguments: cases)
  func validateAndRenderRefuseAlike(_ c: Case) throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try cli.ppm("photo.png", width: 8, height: 6, rgb: [1, 2, 3])
    try cli.ppm("tall.png", width: 1, height: 65501, rgb: [1, 2, 3])
    try cli.ppm("wide.png", width: 16384, height: 1, rgb: [1, 2, 3])
    for (name, manifest) in [
      ("m.json", #"{"version": 1, "jobs": [\#(c.jobs.joined(separator: ",\n"))]}"#),
      ("m.jsonl", c.jobs.joined(separator: "\n") + "\n"),
    ] {
      try cli.write(name, manifest)
      let validated = try cli.run(["validate", name] + c.options)
      #expect(validated.status == 2, "\(name): \(validated.stderr)")
      let rendered = try cli.run(["render", name, "--out", "out"] + c.options)
      #expect(rendered.status == c.renderStatus, "\(name): \(rendered.stderr)")
      for words in c.words {
        #expect(validated.stderr.contains(words), "\(name): \(validated.stderr)")
        #expect(rendered.stderr.contains(words), "\(name): \(rendered.stderr)")
      }
      #expect(cli.files("out").isEmpty)
      #expect((try? FileManager.default.contentsOfDirectory(atPath: cli.path("out/d"))) == nil)
    }
  }

  /// The same manifests with what clashed taken away validate and render: the checks refuse only the clash.
  @Test func theNeighboursOfEachCaseAreValid() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try cli.ppm("photo.png", width: 8, height: 6, rgb: [1, 2, 3])
    try cli.ppm("tall.png", width: 1, height: 65500, rgb: [1, 2, 3])
    try cli.write(
      "m.json",
      #"""
      {"version": 1, "jobs": [
        {"id": "a", "base": "photo.png", "output": "a.png", "overlay": true},
        {"id": "b", "base": "photo.png", "output": "a.overlay2.png"},
        {"id": "c", "base": "photo.png", "output": "d.png/x.png"},
        {"id": "d", "base": "photo.png", "output": "d.png/y.png", "viewOutput": "d.png/v.webp",
         "view": {"width": 16, "height": 8191.5, "screenScale": 2}},
        {"id": "e", "base": "photo.png", "output": "\#(String(repeating: "d/", count: 63))x.png"},
        {"id": "f", "base": "tall.png", "output": "f.jpg"}
      ]}
      """#)
    let validated = try cli.run(["validate", "m.json"])
    #expect(validated.status == 0, "\(validated.stderr)")
    let rendered = try cli.run(["render", "m.json", "--out", "out"])
    #expect(rendered.status == 0, "\(rendered.stderr)")
    #expect(cli.files("out").count == 8)
  }

  /// A missing photo or stamp is the one error validate and render weigh differently, and the README and `help
  /// validate` say so: validate refuses the manifest (2), render fails only the jobs that use the file (1) and
  /// writes the others.
  @Test(arguments: [
    #"{"id": "a", "base": "missing.png", "output": "a.png"}"#,
    #"{"id": "a", "base": "photo.png", "output": "a.png", "stamps": [{"id": "s", "image": "missing.png", "center": [1, 1]}]}"#,
  ])
  func aMissingFileRefusesTheManifestAtValidateAndFailsOnlyItsJobAtRender(_ job: String) throws {
    let readme = try String(
      contentsOf: ScaleOutRecipeTests.repository.appendingPathComponent("README.md"), encoding: .utf8)
    let said = try #require(
      StandardStreamTests.sentences(of: readme).first { $0.contains("missing or cannot be opened") })
    #expect(said.contains("`validate` refuses the whole manifest for it (status 2"), "\(said)")
    #expect(said.contains("`render` fails only the jobs that use it (status 1"), "\(said)")
    let cli = try CommandRunner()
    defer { cli.remove() }
    let help = try cli.run(["help", "validate"])
    let helpSaid = try #require(
      StandardStreamTests.sentences(of: help.stdout).first { $0.contains("missing or cannot be opened") })
    #expect(helpSaid.contains("invalid here; render fails only the jobs that use it (exit status 1"), "\(helpSaid)")

    try cli.ppm("photo.png", width: 4, height: 4, rgb: [10, 20, 30])
    try cli.write(
      "m.json", #"{"version": 1, "jobs": [\#(job), {"id": "b", "base": "photo.png", "output": "b.png"}]}"#)
    let validated = try cli.run(["validate", "m.json", "--allow-untrusted-loaders"])
    #expect(validated.status == 2)
    #expect(validated.stderr.contains("missing.png: no such file"), "\(validated.stderr)")
    let rendered = try cli.run(["render", "m.json", "--out", "out", "--allow-untrusted-loaders"])
    #expect(rendered.status == 1)
    #expect(rendered.stderr.contains(#"job "a": missing.png: no such file"#), "\(rendered.stderr)")
    #expect(cli.files("out") == ["b.png"])
  }
}
