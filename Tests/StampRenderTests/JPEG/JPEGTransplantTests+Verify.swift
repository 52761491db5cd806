import CJPEGDirect
import Foundation
import StampTestShim
import Testing

@testable import StampRender

/// `JPEGTransplant.verify`: at `--fail-on error`, a JPEG photo that libvips decodes itself (CMYK here: stampcam's
/// reader takes only grey and RGB) is checked whole first, because libvips never reads the data past its last row.
/// The entropy scanner reads it; libjpeg reads it again only when the scanner finds something or cannot tell, so that
/// whatever fails does so in libjpeg's words.
@Suite("Checking a photo libvips decodes: the entropy scanner first, libjpeg's words for what fails")
struct VerifyTests {
  /// A 160 x 120 CMYK JPEG written by libjpeg (every component 1 x 1, standard tables), as `name`; its bytes, and
  /// where its entropy-coded data lies in them (from the end of the scan header to the EOI marker).
  static func cmyk(_ name: String, in fixtures: Fixtures) throws -> (bytes: [UInt8], data: Range<Int>) {
    let (width, height) = (160, 120)
    let pixels = Fixtures.samples(width: width, height: height, bands: 4) { x, y in
      Fixtures.texture(x, y) + [UInt8((x * 3 + y * 5) % 200)]
    }
    let path = fixtures.path(name)
    var message = [CChar](repeating: 0, count: 256)
    let status = sjt_fixture_write_coded(
      path, pixels, Int32(width), Int32(height), 4, 0, [1, 1, 1, 1], [1, 1, 1, 1], 90, 0, 0, &message, message.count)
    try #require(status == 0, "\(message.nulTerminatedText)")
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let scan = try #require(bytes.markers(0xDA).first)
    let start = scan + 2 + (Int(bytes[scan + 2]) << 8 | Int(bytes[scan + 3]))
    let end = try #require(bytes.markers(0xD9).last)
    try #require(bytes.count == end + 2)
    return (bytes, start..<end)
  }

  /// How many times libjpeg reads `path`'s data whole to check it (the entropy scanner reads it first), and whether
  /// the check passed.
  static func skimCountingLibjpeg(_ path: String) throws -> (reads: UInt, passed: Bool) {
    let codec = try #require(JPEGCodec())
    _ = try #require(try codec.open(path))
    let passed = (try? codec.skim()) != nil
    return (sjt_libjpeg_checks(codec.state), passed)
  }

  /// A clean photo is not read by libjpeg; one the scanner cannot vouch for is: a progressive photo (not a coding it
  /// handles), and a clean one with a comment segment after its scan (segments there are libjpeg's to read).
  @Test func libjpegReadsOnlyWhatTheScannerCannotClear() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let (bytes, data) = try Self.cmyk("clean.jpg", in: fixtures)
    #expect(try Self.skimCountingLibjpeg(fixtures.path("clean.jpg")) == (0, true))
    let comment = fixtures.path("comment.jpg")
    let segment: [UInt8] = [0xFF, 0xFE, 0x00, 0x04, 0x68, 0x69]
    try Data(Array(bytes[..<data.upperBound]) + segment + [0xFF, 0xD9]).write(to: URL(fileURLWithPath: comment))
    #expect(try Self.skimCountingLibjpeg(comment) == (1, true))
    let progressive = try fixtures.jpeg("progressive.jpg", width: 64, height: 48, subsampling: .half, progressive: true)
    {
      Fixtures.texture($0, $1)
    }
    #expect(try Self.skimCountingLibjpeg(progressive) == (1, true))
  }

  /// Damage the scanner finds, and a warning only libjpeg gives: the job fails at the default `--fail-on error` with
  /// what libjpeg's own read of the photo says, word for word (truncated when it is cut short), and leaves no file.
  /// Bytes before EOI are damage libvips' decode never reaches (they lie past the last row): only the check can fail
  /// the job. A JFIF segment of revision 2 after the scan: the scanner reads the data clean and skips the segment, but
  /// libjpeg warns of the revision when it reads up to EOI, so segments there are left to it.
  @Test(arguments: ["bytes before EOI", "bit flipped", "cut", "JFIF 2 after the scan"])
  func damageFailsTheJobInLibjpegsWords(_ damage: String) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    var (bytes, data) = try Self.cmyk("good.jpg", in: fixtures)
    switch damage {
    case "bytes before EOI":
      // Sixteen: libjpeg-turbo drops the few its bit buffer had taken in unread, and counts the rest.
      bytes.insert(contentsOf: [UInt8](repeating: 0x12, count: 16), at: data.upperBound)
    case "bit flipped":
      // The first flip from the middle of the data on that libjpeg warns about, away from any 0xFF.
      let probe = fixtures.path("probe.jpg")
      var found = false
      search: for at in (data.lowerBound + data.count / 2)..<data.upperBound - 1
      where bytes[at - 1] != 0xFF && bytes[at] != 0xFF {
        for bit in 0..<8 where bytes[at] ^ (1 << bit) != 0xFF {
          var copy = bytes
          copy[at] ^= 1 << bit
          try Data(copy).write(to: URL(fileURLWithPath: probe))
          if RestartIntervalTests.libjpegsComplaint(probe) != nil {
            bytes = copy
            found = true
            break search
          }
        }
      }
      try #require(found)
      try FileManager.default.removeItem(atPath: probe)
    case "cut":
      bytes = Array(bytes.prefix(data.lowerBound + data.count / 2))
    default:
      // APP0, length 16, "JFIF\0", version 2.01, no density, no thumbnail.
      let jfif: [UInt8] = [0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46, 0, 2, 1, 0, 0, 1, 0, 1, 0, 0]
      bytes.insert(contentsOf: jfif, at: data.upperBound)
    }
    try FileManager.default.removeItem(atPath: fixtures.path("good.jpg"))
    let base = fixtures.path("damaged.jpg")
    try Data(bytes).write(to: URL(fileURLWithPath: base))
    let complaint = try #require(RestartIntervalTests.libjpegsComplaint(base))
    let expected: String
    switch damage {
    case "cut": expected = "truncated JPEG"
    case "JFIF 2 after the scan": expected = "corrupt JPEG data (Warning: unknown JFIF revision number 2.01)"
    default: expected = "corrupt JPEG data (Corrupt JPEG data: "
    }
    #expect(complaint.hasPrefix(expected), "\(complaint)")
    #expect(try Self.skimCountingLibjpeg(base) == (1, false))

    let plan = RenderPlan(base: base, stamps: [])
    do {
      try Renderer().render(plan, to: fixtures.path("out.png"))
      Issue.record("a CMYK photo with \(damage) rendered")
    } catch RenderError.input(let path, let problem) {
      #expect(path == base)
      #expect(problem == complaint)
    }
    #expect(try fixtures.files() == ["damaged.jpg"])
  }

  /// Damage only the scanner sees: a flipped bit (see `Scan.stricterThanLibjpeg`), or two bytes between the last
  /// MCU and EOI (libjpeg-turbo drops the bytes its bit buffer took in past the scan's last MCU unread, and warns only
  /// of the rest). libjpeg reads the photo, finds nothing, and the job renders at the default `--fail-on error` the
  /// same pixels as when nothing is checked.
  @Test(arguments: ["bit flipped", "two bytes before EOI"])
  func damageOnlyTheScannerSeesStillRenders(_ damage: String) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let (bytes, data) = try Self.cmyk("good.jpg", in: fixtures)
    var copy = bytes
    if damage == "bit flipped" {
      copy = try #require(Scan.stricterThanLibjpeg(bytes, in: data))
    } else {
      copy.insert(contentsOf: [0x12, 0x34], at: data.upperBound)
    }
    #expect(Scan(copy).result.status == Int32(SJS_DAMAGED))
    let base = fixtures.path("stricter.jpg")
    try Data(copy).write(to: URL(fileURLWithPath: base))
    #expect(RestartIntervalTests.libjpegsComplaint(base) == nil)
    #expect(try Self.skimCountingLibjpeg(base) == (1, true))

    let plan = RenderPlan(base: base, stamps: [])
    let checked = fixtures.path("checked.png")
    let unchecked = fixtures.path("unchecked.png")
    try Renderer().render(plan, to: checked)
    var lenient = Renderer()
    lenient.inputs.failOn = .none
    try lenient.render(plan, to: unchecked)
    #expect(FileManager.default.contentsEqual(atPath: checked, andPath: unchecked))
  }
}
