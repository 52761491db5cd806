import Dispatch
import Foundation
import StampCore
import StampTestSupport
import Synchronization
import Testing

@testable import StampRender

@Suite("Render errors: the file at fault, in plain words, its own")
struct RenderErrorTests {
  /// libvips' messages (as `Vips.check` returns them, seen from libvips 8.14 on such files) in plain words.
  @Test(arguments: [
    ("", ["VipsForeignLoad: \"star.png\" is not a known file format"], "not a JPEG/PNG/WebP/TIFF/... image"),
    ("jpegload", ["VipsJpeg: Premature end of input file", "error in tile 0 x 24"], "truncated JPEG"),
    ("pngload", ["vipspng: libpng read error", "not enough data", "error in tile 0 x 16"], "truncated PNG"),
    (
      "pngload", ["vipspng: libpng read error", "IDAT: CRC error", "error in tile 0 x 0", "read gave 1 warnings"],
      "broken PNG: IDAT: CRC error"
    ),
    (
      "pngload", ["ID\u{1B}\u{0E}: invalid chunk type", "ID\u{1B}\u{0E}: invalid chunk type"],
      "broken PNG: ID??: invalid chunk type"
    ),
    ("webpload", ["webp2vips: unable to read pixels"], "broken WebP: webp2vips: unable to read pixels"),
  ])
  func libvipsMessagesInPlainWords(_ loader: String, _ lines: [String], _ words: String) {
    #expect(RenderError.problem(Vips.Failure(loader: loader, lines: lines)) == words)
  }

  /// A 96 x 64 noisy picture (it compresses badly, so cutting it cuts pixel data), written as `name`.
  static func photo(_ fixtures: Fixtures, _ name: String) throws -> String {
    try fixtures.picture(name, width: 96, height: 64, bands: 3) { x, y in
      [UInt8((x * 37 + y * 11) & 255), UInt8((x * y * 7) & 255), UInt8((x ^ y) * 5 & 255)]
    }
  }

  /// The file `name`'s first `fraction` written as `cut`.
  static func cut(_ fixtures: Fixtures, _ name: String, to cut: String, fraction: Double = 0.5) throws -> String {
    let data = try Data(contentsOf: URL(fileURLWithPath: fixtures.path(name)))
    try data.prefix(Int(Double(data.count) * fraction)).write(to: URL(fileURLWithPath: fixtures.path(cut)))
    return fixtures.path(cut)
  }

  /// A truncated photo fails while libvips encodes the output (it decodes lazily): the error names the photo and
  /// what is wrong with it, not the encoder nor a temporary file. A PNG with a corrupted chunk says what libpng found.
  @Test func aBrokenPhotoIsNamedNotTheEncoder() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    _ = try Self.photo(fixtures, "whole.jpg")
    _ = try Self.photo(fixtures, "whole.png")
    let cases = [
      (try Self.cut(fixtures, "whole.jpg", to: "cut.jpg"), "truncated JPEG"),
      (try Self.cut(fixtures, "whole.png", to: "cut.png"), "truncated PNG"),
    ]
    for (photo, problem) in cases {
      for output in ["out.png", "out.webp"] {
        let error = #expect(throws: RenderError.self) {
          try Renderer().render(RenderPlan(base: photo, stamps: []), to: fixtures.path(output))
        }
        #expect(error == .input(path: photo, problem: problem))
        #expect(error?.description.contains(".tmp") == false)
      }
    }
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixtures.path("whole.png"))))
    for i in 60..<80 { bytes[i] ^= 0x5A }
    try Data(bytes).write(to: URL(fileURLWithPath: fixtures.path("flipped.png")))
    let error = #expect(throws: RenderError.self) {
      try Renderer().render(RenderPlan(base: fixtures.path("flipped.png"), stamps: []), to: fixtures.path("o.png"))
    }
    let flipped = fixtures.path("flipped.png") + ": broken PNG: "
    #expect(error?.description.hasPrefix(flipped) == true, "\(String(describing: error))")
  }

  /// A broken stamp is named, with what is wrong with it; a file that is no image at all says so.
  @Test func aBrokenStampIsNamed() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let photo = try Self.photo(fixtures, "photo.png")
    _ = try Self.photo(fixtures, "whole.png")
    let stamp = try Self.cut(fixtures, "whole.png", to: "stamp.png")
    try Data("not a picture\n".utf8).write(to: URL(fileURLWithPath: fixtures.path("star.png")))
    let star = fixtures.path("star.png")
    for (image, problem) in [(stamp, "truncated PNG"), (star, "not a JPEG/PNG/WebP/TIFF/... image")] {
      let placed = PlacedStamp(id: "s", center: StampPoint(20, 20), size: StampSize(20, 20), scale: 1, rotation: 0)
      let error = #expect(throws: RenderError.self) {
        try Renderer().render(
          RenderPlan(base: photo, stamp: image, placement: placed), to: fixtures.path("out.png"))
      }
      #expect(error == .input(path: image, problem: problem))
    }
  }

  /// A photo that is missing, or a folder, says so rather than "not an image".
  @Test func aMissingPhotoSaysSo() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    for (name, problem) in [("nowhere.jpg", "no such file"), ("", "not a regular file (a folder)")] {
      let photo = fixtures.path(name)
      let error = #expect(throws: RenderError.self) {
        try Renderer().render(RenderPlan(base: photo, stamps: []), to: fixtures.path("out.png"))
      }
      #expect(error == .input(path: photo, problem: problem))
    }
  }

  /// A write that fails with a good photo names the output as the user knows it, never the temporary file.
  @Test func aWriteErrorNamesTheOutputNotTheTemporaryFile() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let photo = try Self.photo(fixtures, "photo.png")
    let output = fixtures.path("missing-folder/out.png")
    let error = #expect(throws: RenderError.self) {
      try Renderer().render(RenderPlan(base: photo, stamps: []), to: output)
    }
    guard case .write(let path, let message) = error else {
      Issue.record("expected a write error, got \(String(describing: error))")
      return
    }
    #expect(path == output)
    #expect(!message.contains(".stampcam-") && !message.contains(".tmp"), "\(message)")
  }

  /// Two jobs failing at once each get their own message: a truncated JPEG and a truncated PNG rendered on two
  /// threads, twelve times over; libvips' buffer is the process's, so a message taken from it alone would
  /// sometimes be the other job's (seen: a PNG job told "VipsJpeg: Premature end of input file").
  @Test func concurrentFailuresKeepTheirOwnMessages() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    _ = try Self.photo(fixtures, "whole.jpg")
    _ = try Self.photo(fixtures, "whole.png")
    let photos = [
      (try Self.cut(fixtures, "whole.jpg", to: "a.jpg"), "truncated JPEG"),
      (try Self.cut(fixtures, "whole.png", to: "b.png"), "truncated PNG"),
    ]
    let wrong = Mutex([String]())
    for round in 0..<12 {
      DispatchQueue.concurrentPerform(iterations: 2) { k in
        let (photo, problem) = photos[k]
        do {
          try Renderer().render(RenderPlan(base: photo, stamps: []), to: fixtures.path("out-\(round)-\(k).png"))
          wrong.withLock { $0.append("\(photo) rendered") }
        } catch {
          let expected = RenderError.input(path: photo, problem: problem)
          if (error as? RenderError) != expected { wrong.withLock { $0.append("\(error)") } }
        }
      }
    }
    #expect(wrong.withLock { $0 }.isEmpty, "\(wrong.withLock { $0 })")
  }
}

extension RenderErrorTests {
  /// What the one reader of libvips' words finds in a line, for lines libvips 8.14 writes.
  @Test func aLineOfLibvipsTextIsReadOnce() {
    let precision = VipsLine("VipsJpeg: Unsupported JPEG data precision 12")
    #expect(precision.jpegPrecision == "12" && !precision.truncated && !precision.unknownFormat)
    #expect(precision.fromLoader, "vipsjpeg is a loader's domain")
    let format = VipsLine("VipsForeignLoad: \"star.png\" is not a known file format")
    #expect(format.unknownFormat && format.fromLoader && format.jpegPrecision == nil)
    #expect(VipsLine("VipsJpeg: Premature end of input file").truncated)
    #expect(VipsLine("error in tile 0 x 24").bookkeeping && !VipsLine("IDAT: CRC error").bookkeeping)
    let save = VipsLine("vips2jpeg: unable to write to target out/.a.jpg.stampcam-00000000-12-0badf00d.tmp")
    #expect(save.namesTemporary && !save.fromLoader)
    #expect(!VipsLine("No space left on device").fromLoader)
  }
}

extension RenderErrorTests {
  /// libvips' lines of a failed save, the photo being fine: other inputs' loader lines and lines naming temporary
  /// files go (they may be other jobs'); the text keeps libvips' own words, joined as before.
  @Test func anEncodingErrorKeepsOnlyItsOwnLines() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let photo = try Self.photo(fixtures, "photo.png")
    let failed = RenderError.encoding(
      path: "out.png",
      lines: [
        "pngload: out of order read", "vips2png: unable to write to .b.png.stampcam-0-1-0badf00d.tmp",
        "vips_image_write: out of memory",
      ])
    let told = failed.diagnosed(reading: photo)
    #expect(told == .encoding(path: "out.png", lines: ["vips_image_write: out of memory"]))
    #expect("\(told)" == "out.png: cannot write: vips_image_write: out of memory")
    let nothing = RenderError.encoding(path: "out.png", lines: ["jpegload: premature end"]).diagnosed(reading: photo)
    #expect("\(nothing)" == "out.png: cannot write: unknown libvips error")
  }
}
