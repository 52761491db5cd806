import Foundation
import Testing

/// A corpus of bad inputs made here: each must give the documented exit status, a message with the right words,
/// and leave nothing unexpected in --out. Never a crash, a hang or a half-written file.
@Suite("Bad input: clear errors, nothing lost")
struct BadInputTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var manifest: String
    var status: Int32
    var words: [String]
    /// What --out holds afterwards.
    var outputs: [String]
    var testDescription: String { name }
  }

  static let good = #"{"id": "good", "base": "photo.ppm", "output": "good.png"}"#

  static let cases: [Case] = [
    Case(
      name: "invalid JSON", manifest: "{\"version\": 1, \"jobs\": [\n{\"base\": }]}", status: 2,
      words: ["m.json:2", "nothing written"], outputs: []),
    Case(
      name: "unknown key with a suggestion",
      manifest:
        #"{"version": 1, "jobs": [{"base": "photo.ppm", "stamps": [{"id": "s", "image": "stamp.ppm", "centre": [1, 2]}]}]}"#,
      status: 2, words: ["jobs[0].stamps[0].centre", "did you mean \"center\""], outputs: []),
    Case(
      name: "infinite number",
      manifest: #"{"version": 1, "jobs": [{"base": "photo.ppm", "view": {"width": 1e400, "height": 20}}]}"#,
      status: 2, words: ["jobs[0].view.width", "finite"], outputs: []),
    Case(
      name: "time goes backwards",
      manifest: #"""
        {"version": 1, "jobs": [{"base": "photo.ppm", "gestures": [{"touches": [
          {"t": 0.6, "id": 1, "phase": "began", "x": 1, "y": 1}, {"t": 0.52, "id": 1, "phase": "ended", "x": 1, "y": 1}]}]}]}
        """#,
      status: 2, words: ["jobs[0].gestures[0].touches[1].t", "time goes backwards (0.52 after 0.6"], outputs: []),
    Case(
      name: "unknown stamp id",
      manifest: #"{"version": 1, "jobs": [{"base": "photo.ppm", "gestures": [{"pinch": {"on": "ghost"}}]}]}"#,
      status: 2, words: ["jobs[0].gestures[0].pinch.on", "ghost"], outputs: []),
    Case(
      name: "output escaping --out",
      manifest: #"{"version": 1, "jobs": [{"base": "photo.ppm", "output": "../x.png"}]}"#,
      status: 2, words: ["jobs[0].output", ".."], outputs: []),
    Case(
      name: "absolute output", manifest: #"{"version": 1, "jobs": [{"base": "photo.ppm", "output": "/tmp/x.png"}]}"#,
      status: 2, words: ["jobs[0].output", "absolute"], outputs: []),
    Case(
      name: "deep nesting", manifest: String(repeating: "[", count: 100_000), status: 2, words: ["m.json:1", "deep"],
      outputs: []),
    Case(
      name: "missing photo fails its job alone",
      manifest: #"{"version": 1, "jobs": [\#(good), {"id": "bad", "base": "nowhere.jpg", "output": "bad.png"}]}"#,
      status: 1, words: ["nowhere.jpg"], outputs: ["good.png"]),
    Case(
      name: "not an image",
      manifest: #"{"version": 1, "jobs": [\#(good), {"id": "bad", "base": "text.jpg", "output": "bad.png"}]}"#,
      status: 1, words: ["text.jpg"], outputs: ["good.png"]),
    Case(
      name: "truncated photo",
      manifest: #"{"version": 1, "jobs": [\#(good), {"id": "bad", "base": "cut.png", "output": "bad.png"}]}"#,
      status: 1, words: ["cut.png"], outputs: ["good.png"]),
    Case(
      name: "a tiny file claiming 100000 x 100000 pixels",
      manifest: #"{"version": 1, "jobs": [\#(good), {"id": "bad", "base": "huge.png", "output": "bad.png"}]}"#,
      status: 1, words: ["huge.png", "100000x100000", "over the limit"], outputs: ["good.png"]),
    Case(
      name: "missing stamp",
      manifest:
        #"{"version": 1, "jobs": [{"id": "bad", "base": "photo.ppm", "output": "bad.png", "stamps": [{"id": "s", "image": "gone.png", "center": [1, 1]}]}]}"#,
      status: 1, words: ["gone.png"], outputs: []),
    Case(
      name: "unwritable format is a manifest error",
      manifest: #"{"version": 1, "jobs": [\#(good), {"id": "bad", "base": "photo.ppm", "output": "bad.gif"}]}"#,
      status: 2, words: ["jobs[1].output", "bad.gif", "unknown output format", "nothing written"], outputs: []),
  ]

  @Test(arguments: cases)
  func badInputIsReportedClearly(_ c: Case) throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try cli.ppm("photo.ppm", width: 16, height: 12, rgb: [10, 20, 30])
    try cli.write("text.jpg", "this is not a picture\n")
    try cli.write("cut.png", bytes: Array(try Self.png(width: 64, height: 64).prefix(60)))
    try cli.write("huge.png", bytes: try Self.png(width: 100_000, height: 100_000))
    try cli.write("m.json", c.manifest)
    let start = Date()
    let result = try cli.run(["render", "m.json", "--out", "out"])
    #expect(result.status == c.status, "stderr: \(result.stderr)")
    for word in c.words { #expect(result.stderr.contains(word), "'\(word)' not in: \(result.stderr)") }
    #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Stack dump"))
    #expect(cli.files("out") == c.outputs)
    #expect(Date().timeIntervalSince(start) < 30)
  }

  @Test func aMissingManifestIsAUsageError() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    let result = try cli.run(["render", "absent.json", "--out", "out"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("absent.json") && result.stderr.contains("cannot read"))
  }

  @Test func validateReportsEveryErrorAtOnceIncludingMissingFiles() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try cli.write(
      "m.json",
      #"{"version": 1, "jobs": [{"base": "a.jpg", "colour": 1}, {"base": "b.jpg", "stamps": [{"id": "s", "image": "c.png", "center": [0, 0], "scale": -1}]}]}"#
    )
    let broken = try cli.run(["validate", "m.json"])
    #expect(broken.status == 2)
    #expect(broken.stderr.contains("jobs[0].colour") && broken.stderr.contains("jobs[1].stamps[0].scale"))
    try cli.write("n.json", #"{"version": 1, "jobs": [{"base": "a.jpg"}]}"#)
    let missing = try cli.run(["validate", "n.json"])
    #expect(missing.status == 2 && missing.stderr.contains("jobs[0].base") && missing.stderr.contains("no such file"))
  }

  /// A PNG strip of 1 x 100,000,000 pixels (within --max-pixels) passes libpng's limit of 1,000,000 rows.
  /// libpng says so only in a warning, which the shared error buffer does not hold: render, which reads the file
  /// again alone when it fails, told the reason, validate said "unknown libvips error". Both tell it now.
  @Test func validateAndRenderBothTellLibpngsReason() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    try cli.write("strip.png", bytes: try Self.png(width: 1, height: 100_000_000))
    try cli.write("m.json", #"{"version": 1, "jobs": [{"id": "s", "base": "strip.png", "output": "s.png"}]}"#)
    let reason = "strip.png: broken PNG: Image height exceeds user limit in IHDR"
    let validate = try cli.run(["validate", "m.json"])
    #expect(validate.status == 2 && validate.stderr.contains("jobs[0]: " + reason), "\(validate.stderr)")
    let render = try cli.run(["render", "m.json", "--out", "out"])
    #expect(render.status == 1 && render.stderr.contains("job \"s\": " + reason), "\(render.stderr)")
    #expect(!(validate.stderr + render.stderr).contains("unknown libvips error"))
  }

  /// A PNG whose header says `width` x `height`, with one empty zlib stream for data: a few dozen bytes.
  static func png(width: Int, height: Int) throws -> [UInt8] {
    func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
      let body = Array(type.utf8) + data
      return be32(UInt32(data.count)) + body + be32(crc32(body))
    }
    let header = be32(UInt32(width)) + be32(UInt32(height)) + [8, 2, 0, 0, 0]
    return [137, 80, 78, 71, 13, 10, 26, 10] + chunk("IHDR", header)
      + chunk("IDAT", [0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
  }

  /// CRC-32 (ISO 3309), as PNG chunks need.
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}
