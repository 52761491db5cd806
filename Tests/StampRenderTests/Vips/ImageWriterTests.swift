import CVipsGlue
import Foundation
import StampCore
import StampTestShim
import StampTestSupport
import Testing

@testable import StampRender

@Suite("Writing outputs: formats, atomicity, metadata")
struct ImageWriterTests {
  static let extensions = ["jpg", "jpeg", "png", "webp", "tif", "tiff", "JPG"]

  /// Every supported extension writes a file of that format that reads back with the stamp where it was drawn.
  @Test(arguments: extensions)
  func eachFormatIsWrittenAndReadsBack(_ ext: String) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.solid("base.png", width: 64, height: 48, pixel: [20, 40, 60])
    let stamp = try fixtures.solid("stamp.png", width: 16, height: 16, pixel: [250, 10, 10, 255])
    let plan = RenderPlan(
      base: base, stamp: stamp,
      placement: PlacedStamp(id: "s", center: StampPoint(32, 24), size: StampSize(16, 16), scale: 1, rotation: 0))
    let output = fixtures.path("out.\(ext)")
    try Renderer().render(plan, to: output)
    let pixels = try Pixels(output)
    #expect(pixels.width == 64 && pixels.height == 48 && pixels.bands == 3)
    let lossy = ["jpg", "jpeg", "JPG", "webp"].contains(ext)
    let tolerance = lossy ? 12 : 0
    for (x, y, expected) in [(32, 24, [250, 10, 10]), (4, 4, [20, 40, 60])] {
      let got = pixels[x, y].map(Int.init)
      #expect(zip(got, expected).allSatisfy { abs($0 - $1) <= tolerance }, "\(ext) at (\(x), \(y)): \(got)")
    }
    #expect(try fixtures.files() == ["base.png", "out.\(ext)", "stamp.png"])
  }

  /// A rename that cannot happen (the target is a folder) leaves neither a temporary file nor a changed target.
  @Test func failedWriteLeavesNoTemporaryFile() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.solid("base.png", width: 32, height: 32, pixel: [1, 2, 3])
    let target = fixtures.path("out.png")
    try FileManager.default.createDirectory(atPath: target + "/inside", withIntermediateDirectories: true)
    #expect(throws: RenderError.self) { try Renderer().render(RenderPlan(base: base, stamps: []), to: target) }
    #expect(try fixtures.files() == ["base.png", "out.png"])
  }

  /// A truncated JPEG fails while it is being encoded into the temporary file: the error names the photo and the
  /// temporary file is removed.
  @Test func truncatedPhotoFailsAndLeavesNothing() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let whole = try fixtures.picture("whole.jpg", width: 256, height: 256, bands: 3) { x, y in
      [UInt8(x), UInt8(y), UInt8((x * y) & 255)]
    }
    let data = try Data(contentsOf: URL(fileURLWithPath: whole))
    let cut = fixtures.path("cut.jpg")
    try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut))
    try FileManager.default.removeItem(atPath: whole)
    let output = fixtures.path("out.jpg")
    do {
      try Renderer().render(RenderPlan(base: cut, stamps: []), to: output)
      Issue.record("rendering a truncated photo succeeded")
    } catch let error as RenderError {
      #expect(error.description.contains("cut.jpg"))
    }
    #expect(try fixtures.files() == ["cut.jpg"])
  }

  /// The photo's EXIF (which may hold GPS and the camera's make) is stripped; the ICC profile is kept. (libvips'
  /// JPEG writer always adds its own minimal EXIF block: resolution, dimensions, orientation 1; nothing of the
  /// source's.)
  @Test func metadataIsStrippedButTheICCProfileIsKept() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.photoWithPrivateMetadata("base.jpg")
    let input = try Image.open(base, sequential: false)
    #expect(scv_has_field(input.pointer, "icc-profile-data") != 0)
    #expect(
      scv_has_field(input.pointer, "exif-ifd3-GPSLatitude") != 0 && scv_has_field(input.pointer, "exif-ifd0-Make") != 0)
    let output = fixtures.path("out.jpg")
    try Renderer().render(RenderPlan(base: base, stamps: []), to: output)
    let written = try Image.open(output, sequential: false)
    #expect(scv_has_field(written.pointer, "icc-profile-data") != 0)
    #expect(scv_has_field(written.pointer, "exif-ifd0-Make") == 0)
    #expect(scv_has_field(written.pointer, "exif-ifd3-GPSLatitude") == 0)
  }

  @Test func unknownExtensionIsRefused() throws {
    #expect(OutputFormat(path: "a/b.gif") == nil)
    #expect(OutputFormat(path: "a.b/c") == nil)
    #expect(OutputFormat(path: "x.TIFF") == .tiff)
  }
}
