import Foundation
import Testing

/// `stampcam render` on hostile inputs: files that are not files, inputs outside the root, untrusted formats.
@Suite("render: inputs that are not photos, outside the root, or untrusted; signals")
struct RenderInputCommandTests {
  static let good = #"{"id": "good", "base": "photo.png", "output": "good.png"}"#

  /// Bug 1: a FIFO photo blocked forever in open, a FIFO stamp stalled every job, /dev/zero spun in format
  /// detection. Now each fails its own job at once, named, and the others are written.
  @Test func aFIFOOrADeviceFailsItsJobAtOnce() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try cli.ppm("photo.png", width: 16, height: 12, rgb: [10, 20, 30])
    #expect(mkfifo(cli.path("fifo.jpg"), 0o600) == 0)
    #expect(mkfifo(cli.path("stamp.png"), 0o600) == 0)
    try FileManager.default.createSymbolicLink(atPath: cli.path("zero.jpg"), withDestinationPath: "/dev/zero")
    let stamp = #"[{"id": "s", "image": "stamp.png", "center": [4, 4]}]"#
    try cli.write(
      "m.jsonl",
      """
      \(Self.good)
      {"id": "fifo", "base": "fifo.jpg", "output": "f.png"}
      {"id": "zero", "base": "zero.jpg", "output": "z.png"}
      {"id": "stamped", "base": "photo.png", "output": "s.png", "stamps": \(stamp)}

      """)
    let start = Date()
    let result = try cli.run(["render", "m.jsonl", "--out", "out", "--jobs", "1"])
    #expect(Date().timeIntervalSince(start) < 20)
    #expect(result.status == 1)
    for name in ["fifo.jpg", "zero.jpg", "stamp.png"] {
      #expect(result.stderr.contains(name + ": not a regular file"), "\(result.stderr)")
    }
    #expect(cli.files("out") == ["good.png"])
  }

  @Test func inputsOutsideTheRootRefuseTheWholeManifest() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try FileManager.default.createDirectory(atPath: cli.path("in"), withIntermediateDirectories: true)
    try cli.ppm("in/photo.png", width: 16, height: 12, rgb: [10, 20, 30])
    try cli.ppm("secret.png", width: 16, height: 12, rgb: [10, 20, 30])
    try FileManager.default.createSymbolicLink(atPath: cli.path("in/link.png"), withDestinationPath: "../secret.png")
    try cli.write(
      "in/m.json",
      """
      {"version": 1, "jobs": [{"id": "ok", "base": "photo.png", "output": "ok.png"},
        {"id": "dots", "base": "../secret.png", "output": "d.png"},
        {"id": "link", "base": "photo.png", "output": "l.png", "stamps": [{"id": "s", "image": "link.png", "center": [1, 1]}]}]}
      """)
    let refused = try cli.run(["render", "in/m.json", "--out", "out", "--input-root", "in"])
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("jobs[1].base") && refused.stderr.contains("outside the input root"))
    #expect(refused.stderr.contains("jobs[2].stamps[0].image"))
    #expect(cli.files("out").isEmpty)
    let missing = try cli.run(["render", "in/m.json", "--out", "out", "--input-root", "nowhere"])
    #expect(missing.status == 2 && missing.stderr.contains("--input-root nowhere: not a folder"))
    let open = try cli.run(["render", "in/m.json", "--out", "out"])
    #expect(open.status == 0, "without --input-root every input may be read: \(open.stderr)")
  }

  /// libvips' untrusted loaders are refused unless --allow-untrusted-loaders says the input is trusted.
  @Test func untrustedFormatsNeedTheirOption() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try cli.write("photo.ppm", "P6\n4 4\n255\n" + String(repeating: "abc", count: 16))
    try cli.write(
      "stamp.svg", #"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>"#)
    try cli.write(
      "m.json",
      #"{"version": 1, "jobs": [{"id": "p", "base": "photo.ppm", "output": "p.png", "stamps": [{"id": "s", "image": "stamp.svg", "center": [2, 2]}]}]}"#
    )
    let refused = try cli.run(["render", "m.json", "--out", "out"])
    #expect(refused.status == 1 && refused.stderr.contains("photo.ppm") && refused.stderr.contains("not allowed"))
    #expect(cli.files("out").isEmpty)
    let allowed = try cli.run(["render", "m.json", "--out", "out", "--allow-untrusted-loaders"])
    #expect(allowed.status == 0, "\(allowed.stderr)")
    #expect(cli.files("out") == ["p.png"])
  }
}

extension RenderCommandTests {
  /// SIGTERM (or SIGHUP, SIGINT) used to print "finishing the jobs in flight", which a hung job never did. Now
  /// the jobs in flight get a short grace, then are stopped; nothing is left and the status is 128 + the signal.
  @Test(arguments: [(SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
  func aSignalStopsTheJobsInFlightAfterAGrace(_ number: Int32, _ status: Int32) throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    // A header claiming 30000 x 30000 pixels over 16 x 16 of data: rendered in grey under --fail-on none, for
    // far longer than the grace (some 30 s).
    var bytes = try cli.jpeg("slow.jpg", width: 16, height: 16, rgb: [90, 90, 90])
    let frame = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
    bytes.replaceSubrange(frame + 5..<frame + 9, with: [0x75, 0x30, 0x75, 0x30])
    try cli.write("slow.jpg", bytes: bytes)
    try cli.write("m.json", #"{"version": 1, "jobs": [{"id": "slow", "base": "slow.jpg", "output": "slow.png"}]}"#)
    var signalled = Date()
    let result = try cli.run([
      "render", "m.json", "--out", "out", "--fail-on", "none", "--job-timeout", "0", "--max-pixels", "1000000000",
    ]) {
      // Once the output's temporary file exists, the job is writing.
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline, cli.files("out").isEmpty { usleep(20_000) }
      signalled = Date()
      kill($0.processIdentifier, number)
    }
    #expect(result.status == status, "\(result.stderr)")
    #expect(Date().timeIntervalSince(signalled) < 8, "a 3 s grace, then the job is stopped")
    #expect(result.stderr.contains("the job was stopped by"), "\(result.stderr)")
    #expect(cli.files("out").isEmpty)
  }
}

extension RenderCommandTests {
  /// validate (and explain) take render's --allow-untrusted-loaders, --max-pixels and --input-root, with their
  /// meaning there: without them a manifest render accepts with them failed validate, or one render refuses
  /// passed it.
  @Test func validateTakesTheInputOptionsOfRender() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try FileManager.default.createDirectory(atPath: cli.path("in"), withIntermediateDirectories: true)
    try cli.write("in/photo.ppm", "P6\n4 4\n255\n" + String(repeating: "abc", count: 16))
    try cli.ppm("in/photo.png", width: 16, height: 12, rgb: [10, 20, 30])
    try cli.ppm("secret.png", width: 16, height: 12, rgb: [10, 20, 30])
    try cli.write("in/ppm.json", #"{"version": 1, "jobs": [{"id": "p", "base": "photo.ppm", "output": "p.png"}]}"#)
    let untrusted = try cli.run(["validate", "in/ppm.json"])
    #expect(untrusted.status == 2)
    #expect(untrusted.stderr.contains("in/ppm.json:1: jobs[0]: ") && untrusted.stderr.contains("not allowed"))
    #expect(try cli.run(["validate", "in/ppm.json", "--allow-untrusted-loaders"]).status == 0)

    try cli.write("in/png.json", #"{"version": 1, "jobs": [{"id": "p", "base": "photo.png", "output": "p.png"}]}"#)
    let large = try cli.run(["validate", "in/png.json", "--max-pixels", "191"])
    #expect(large.status == 2 && large.stderr.contains("image is 16x12 (192 pixels), over the limit of 191 pixels"))
    #expect(try cli.run(["validate", "in/png.json", "--max-pixels=192"]).status == 0)

    try cli.write(
      "in/outside.json", #"{"version": 1, "jobs": [{"id": "o", "base": "../secret.png", "output": "o.png"}]}"#)
    #expect(try cli.run(["validate", "in/outside.json"]).status == 0)
    let outside = try cli.run(["validate", "in/outside.json", "--input-root", "in"])
    #expect(outside.status == 2)
    #expect(outside.stderr.contains("in/outside.json:1: jobs[0].base: "))
    #expect(outside.stderr.contains("outside the input root"))
    let missing = try cli.run(["validate", "in/png.json", "--input-root", "nowhere"])
    #expect(missing.status == 2 && missing.stderr.contains("--input-root nowhere: not a folder"))
    #expect(try cli.run(["validate", "in/png.json", "--input-root", "in"]).status == 0)

    // explain reads the headers the same way.
    let unexplained = try cli.run(["explain", "in/ppm.json"])
    #expect(unexplained.status == 1 && unexplained.stderr.contains("not allowed"))
    let explained = try cli.run(["explain", "in/ppm.json", "--allow-untrusted-loaders"])
    #expect(explained.status == 0 && explained.stdout.contains(#""id": "p""#), "\(explained.stderr)")
    let tooLarge = try cli.run(["explain", "in/png.json", "--max-pixels", "191"])
    #expect(tooLarge.status == 1 && tooLarge.stderr.contains("over the limit of 191 pixels"))
    let outsideRoot = try cli.run(["explain", "in/outside.json", "--input-root", "in"])
    #expect(outsideRoot.status == 1 && outsideRoot.stderr.contains("outside the input root"))
  }
}
