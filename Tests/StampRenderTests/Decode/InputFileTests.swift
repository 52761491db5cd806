import Dispatch
import Foundation
import StampCore
import StampFiles
import StampTestSupport
import Synchronization
import Testing

@testable import StampRender

/// `InputFile`: inputs are regular files, opened once, read from that one descriptor, never parsed for options.
struct InputFileTests {
  @Test func aFIFOADeviceOrAFolderIsRefusedBeforeAnythingIsRead() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let fifo = fixtures.path("photo.jpg")
    #expect(mkfifo(fifo, 0o600) == 0)
    let zero = fixtures.path("zero.png")
    try FileManager.default.createSymbolicLink(atPath: zero, withDestinationPath: "/dev/zero")
    let cases = [
      (fifo, "a FIFO"), ("/dev/zero", "a character device"), (zero, "a character device"),
      (fixtures.folder.url.path, "a folder"),
    ]
    for (path, kind) in cases {
      // A FIFO with no writer used to block in open, /dev/zero to spin in format detection.
      #expect(throws: FileError.input(path: path, problem: "not a regular file (\(kind))")) {
        try ImageHeader.read(path)
      }
    }
  }

  @Test func bracketsInANameArePartOfTheNameNotLoaderOptions() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    try fixtures.solid("photo.png", width: 40, height: 24, pixel: [1, 2, 3])
    // libvips' file loader would read "photo.png[shrink=2]" as photo.png shrunk.
    #expect(throws: FileError.self) { try ImageHeader.read(fixtures.path("photo.png[shrink=2]")) }
    try FileManager.default.moveItem(atPath: fixtures.path("photo.png"), toPath: fixtures.path("photo.png[shrink=2]"))
    let header = try ImageHeader.read(fixtures.path("photo.png[shrink=2]"))
    #expect((header.width, header.height) == (40, 24))
  }

  /// Bug 5: the header was read from one open and the pixels from another, so a photo swapped in between was
  /// decoded unchecked. Now what the header said is what is decoded, on both render paths.
  @Test(arguments: ["out.png", "out.jpg"])
  func aPhotoSwappedAfterItsHeaderWasReadIsNotWhatGetsDecoded(_ output: String) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.jpeg("base.jpg", width: 32, height: 16, subsampling: .none) { _, _ in [200, 40, 40] }
    let file = try InputFile.open(base)
    let renderer = Renderer(maxPixels: 1000)
    #expect(try ImageHeader.read(file, policy: renderer.inputs).width == 32)
    // The name now holds a photo over the pixel limit.
    let big = try fixtures.jpeg("big.jpg", width: 64, height: 64, subsampling: .none) { _, _ in [0, 0, 255] }
    #expect(rename(big, base) == 0)
    var plan = RenderPlan(base: base, stamps: [])
    plan.baseFile = file
    try renderer.render(plan, to: fixtures.path(output))
    let written = try DecodedImage(contentsOf: fixtures.path(output))
    #expect((written.width, written.height) == (32, 16))
    #expect(written.samples[0] > 150 && written.samples[2] < 100, "the red photo, not the blue one")
    // Opened afresh, the name gives the big photo, which the limit refuses.
    plan.baseFile = nil
    #expect(throws: RenderError.tooLarge(path: base, width: 64, height: 64, limit: 1000)) {
      try renderer.render(plan, to: fixtures.path("again.png"))
    }
  }

  @Test func anInputOutsideTheRootIsRefusedByItsRealPath() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    try FileManager.default.createDirectory(atPath: fixtures.path("root"), withIntermediateDirectories: true)
    let inside = try fixtures.solid("root/in.png", width: 4, height: 4, pixel: [1, 1, 1])
    let outside = try fixtures.solid("out.png", width: 4, height: 4, pixel: [1, 1, 1])
    try FileManager.default.createSymbolicLink(atPath: fixtures.path("root/link.png"), withDestinationPath: outside)
    let root = try InputPolicy.root(fixtures.path("root/../root"))
    #expect(try InputFile.open(inside, root: root).path == inside)
    for path in [outside, fixtures.path("root/../out.png"), fixtures.path("root/link.png")] {
      #expect(throws: FileError.self) { try InputFile.open(path, root: root) }
      do {
        _ = try InputFile.open(path, root: root)
      } catch {
        #expect("\(error)".contains("outside the input root \(root)"))
      }
    }
    #expect(throws: FileError.self) { try InputPolicy.root(outside) }
  }
}

extension InputFileTests {
  /// libvips' untrusted loaders (and every loader but the photo formats') are refused by default, naming the file:
  /// an SVG stamp could pull a local text file into the picture, a small one run for minutes.
  @Test(arguments: [
    ("p.ppm", "P6\n2 2\n255\n" + String(repeating: "a", count: 12)),
    ("s.svg", #"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>"#),
    ("m.mat", "1 2 3\n4 5 6\n"), ("v.csv", "1,2,3\n4,5,6\n"),
  ])
  func formatsOtherThanThePhotoOnesAreRefused(_ name: String, _ content: String) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    try fixtures.folder.write(name, content)
    do {
      _ = try ImageHeader.read(fixtures.path(name))
      Issue.record("\(name) was read")
    } catch let error as RenderError {
      #expect(error.description.hasPrefix(fixtures.path(name) + ": cannot read image: "))
      #expect(error.description.contains("not allowed") || error.description.contains("known format"))
    }
  }
}

extension InputFileTests {
  /// A refusal at open is the file's own message even while other files fail at once: libvips' error buffer is the
  /// process's, so a reason taken from it could be another thread's (or gone, taken by that thread).
  @Test func refusalsAtOnceKeepTheirOwnReasons() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    try fixtures.folder.write("s.svg", #"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>"#)
    try fixtures.folder.write("p.ppm", "P6\n2 2\n255\n" + String(repeating: "a", count: 12))
    try fixtures.folder.write("t.txt", "no image here, only words\n")
    let cases = [
      ("s.svg", "format not allowed (svgload"), ("p.ppm", "format not allowed (ppmload"),
      ("t.txt", "not an image in a known format"),
    ]
    let wrong = Mutex([String]())
    DispatchQueue.concurrentPerform(iterations: 60) { k in
      let (name, reason) = cases[k % cases.count]
      do {
        _ = try ImageHeader.read(fixtures.path(name))
        wrong.withLock { $0.append("\(name) was read") }
      } catch {
        let expected = "\(fixtures.path(name)): cannot read image: \(reason)"
        if !"\(error)".hasPrefix(expected) { wrong.withLock { $0.append("\(error)") } }
      }
    }
    #expect(wrong.withLock { $0 }.isEmpty, "\(wrong.withLock { $0 })")
  }
}

extension InputFileTests {
  /// The loader's refusal reaches Swift as its code, the words beside it unchanged; diagnosing switches on the code.
  @Test func aRefusalIsACodeBesideItsWords() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    try fixtures.folder.write("p.ppm", "P6\n2 2\n255\n" + String(repeating: "a", count: 12))
    try fixtures.folder.write("t.txt", "no image here, only words\n")
    let cases: [(String, RenderError.Refusal, String, String)] = [
      (
        "p.ppm", .loaderNotAllowed,
        "format not allowed (ppmload_source; stampcam reads JPEG, PNG, WebP, TIFF, GIF and HEIF unless "
          + "--allow-untrusted-loaders is given)",
        // Refused by policy: told as it is, not decoded again.
        "cannot read image: format not allowed (ppmload"
      ),
      ("t.txt", .unknownFormat, "not an image in a known format", "not a JPEG/PNG/WebP/TIFF/... image"),
    ]
    for (name, refusal, words, diagnosed) in cases {
      let path = fixtures.path(name)
      let error = #expect(throws: RenderError.self) {
        try Image.open(InputFile.open(path), sequential: true, policy: InputPolicy())
      }
      #expect(error == .refused(path: path, refusal: refusal, message: words))
      #expect(error?.description == "\(path): cannot read image: \(words)")
      #expect(error.map { "\($0.diagnosed(reading: path))" }?.hasPrefix("\(path): \(diagnosed)") == true)
    }
  }
}
