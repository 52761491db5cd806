import Foundation
import StampCore
import Testing

@testable import StampRender

@Suite("JPEG codec: each C entry point refuses what does not fit, and photo files over the size limit")
struct JPEGCodecTests {
  /// A 48 x 32 4:2:0 photo (iMCUs of 16 x 16: 3 x 2 of them), its coefficients read.
  static func opened(_ fixtures: Fixtures, restartInterval: Int = 0) throws -> (JPEGCodec, String) {
    let base = try fixtures.jpeg(
      "base.jpg", width: 48, height: 32, subsampling: .half, restartInterval: restartInterval
    ) { Fixtures.texture($0, $1) }
    let codec = try #require(JPEGCodec())
    _ = try codec.open(base)
    return (codec, base)
  }

  static let badRegions = [
    GridRect(left: -16, top: 0, width: 16, height: 16), GridRect(left: 8, top: 0, width: 16, height: 16),
    GridRect(left: 0, top: 0, width: 0, height: 16), GridRect(left: 0, top: 0, width: 64, height: 16),
    GridRect(left: 32, top: 16, width: 16, height: 32), GridRect(left: 0, top: 0, width: 8, height: 16),
    GridRect(left: 0, top: 16, width: 16, height: 12),
  ]

  @Test func regionsThatDoNotFitTheImageAreRefusedAndTheCodecGoesOn() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let (codec, _) = try Self.opened(fixtures)
    try codec.readCoefficients()
    for rect in Self.badRegions {
      #expect(throws: RenderError.self, "\(rect)") { try codec.decode(rect) }
      let rgb = [UInt8](repeating: 0, count: max(rect.width * rect.height * 3, 0))
      #expect(throws: RenderError.self, "\(rect)") { try codec.replace(rect, rgb: rgb, masks: [[], [], []]) }
    }
    // The right and bottom edges end a region wherever they fall.
    #expect(try codec.decode(GridRect(left: 32, top: 16, width: 16, height: 16)).count == 16 * 16 * 3)
    #expect(try codec.decode(GridRect(left: 0, top: 0, width: 48, height: 32)).count == 48 * 32 * 3)
  }

  /// The buffers regions are decoded into and encoded from (the codec's own, reused from job to job) must hold the
  /// region: one byte short is refused before the C reads or writes it; a buffer of old pixels is overwritten whole.
  @Test func pixelBuffersTooSmallForTheRegionAreRefused() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let (codec, _) = try Self.opened(fixtures)
    try codec.readCoefficients()
    let rect = GridRect(left: 0, top: 0, width: 32, height: 16)
    let need = 32 * 16 * 3
    let short = UnsafeMutableRawBufferPointer.allocate(byteCount: need - 1, alignment: 1)
    defer { short.deallocate() }
    #expect(throws: RenderError.self) { try codec.decode(rect, into: short) }
    let masks: [[UInt8]] = [[UInt8](repeating: 1, count: 8), [1, 1], [1, 1]]
    #expect(throws: RenderError.self) { try codec.replace(rect, rgb: UnsafeRawBufferPointer(short), masks: masks) }
    let stale = codec.decoded[0].bytes(need)
    stale.initializeMemory(as: UInt8.self, repeating: 0xA5)
    try codec.decode(rect, into: stale)
    #expect(Array(stale) == (try codec.decode(rect)))
  }

  /// A buffer grown for a huge strip is given back when the job ends; a usual one is kept for the next job.
  @Test func pixelBuffersKeepOnlyUsualSizesBetweenJobs() {
    let buffer = PixelBuffer()
    _ = buffer.bytes(PixelBuffer.keptBytes)
    buffer.trim()
    #expect(buffer.capacity == PixelBuffer.keptBytes)
    _ = buffer.bytes(PixelBuffer.keptBytes + 1)
    #expect(buffer.capacity == PixelBuffer.keptBytes + 1)
    buffer.trim()
    #expect(buffer.capacity == 0)
    #expect(buffer.bytes(10).count == 10)
  }

  /// A 32 x 16 region of 4:2:0 holds 4 x 2 luma blocks and one 2 x 1 row of each chroma's.
  @Test func masksThatDoNotFitTheRegionAreRefused() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let (codec, _) = try Self.opened(fixtures)
    try codec.readCoefficients()
    let rect = GridRect(left: 0, top: 0, width: 32, height: 16)
    let rgb = try codec.decode(rect)
    let luma = [UInt8](repeating: 1, count: 8)
    let chroma: [UInt8] = [0, 1]
    for masks in [
      [luma, chroma], [luma, chroma, chroma, chroma], [luma, chroma, [0, 1, 0]], [luma, [0, 2], chroma],
    ] {
      #expect(throws: RenderError.self, "\(masks)") { try codec.replace(rect, rgb: rgb, masks: masks) }
    }
    try codec.replace(rect, rgb: rgb, masks: [luma, chroma, chroma])
  }

  /// Restart intervals of one MCU row each (3 MCUs): a span must be whole rows of 16 pixels, the last ending at 32.
  @Test func spansThatAreNotWholePixelRowsAreRefused() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let (codec, _) = try Self.opened(fixtures, restartInterval: 3)
    #expect(try codec.indexRestarts() == 3)
    for (first, count, height) in [(0, 1, 15), (0, 1, 17), (1, 1, 8), (0, 2, 16), (1, 2, 16), (-1, 1, 16)] {
      #expect(throws: RenderError.self, "\(first), \(count), \(height)") {
        try codec.openSpan(first: first, count: count, height: height)
      }
    }
    try codec.openSpan(first: 1, count: 1, height: 16)
    #expect(try codec.decode(GridRect(left: 0, top: 0, width: 48, height: 16)).count == 48 * 16 * 3)
  }

  /// A photo file over the limit is refused from its size, by the C before it reads it and by the renderer on
  /// every path, naming the file and the limit and writing nothing.
  @Test func aPhotoFileOverTheSizeLimitIsRefusedBeforeItIsRead() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let (codec, base) = try Self.opened(fixtures)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: base)).count
    #expect(throws: RenderError.fileTooLarge(path: base, limit: bytes - 1)) {
      try codec.open(base, maxBytes: bytes - 1)
    }
    #expect(try codec.open(base, maxBytes: bytes) != nil)
    var renderer = Renderer()
    renderer.maxFileBytes = bytes - 1
    for name in ["out.jpg", "out.png"] {
      #expect(throws: RenderError.fileTooLarge(path: base, limit: bytes - 1)) {
        try renderer.render(RenderPlan(base: base, stamps: []), to: fixtures.path(name))
      }
    }
    #expect(try fixtures.files() == ["base.jpg"])
    #expect(
      RenderError.fileTooLarge(path: "a.jpg", limit: 9).description
        == "a.jpg: the file is over the limit of 9 bytes for a photo")
    // 512 MiB, or 5 bytes a pixel of --max-pixels when that is more.
    #expect(Renderer(maxPixels: 100_000_000).maxFileBytes == 536_870_912)
    #expect(Renderer(maxPixels: 200_000_000).maxFileBytes == 1_000_000_000)
    #expect(Renderer(maxPixels: Int.max).maxFileBytes == Int.max)
  }

  /// A photo read through the window is read again after it is opened (its scan, its MCUs, or the whole file for the
  /// other paths): changed in between, the job fails as an input error naming it, whichever read finds the change,
  /// and a codec that opens it again reads it as it is now.
  @Test func aPhotoChangedAfterItIsOpenedFailsAsAnInputError() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try fixtures.jpeg("base.jpg", width: 160, height: 120, subsampling: .half) { Fixtures.texture($0, $1) }
    let codec = try #require(JPEGCodec())
    codec.readsThroughWindow(of: 1024)
    let rects = [GridRect(left: 1, top: 1, width: 2, height: 2)]
    func grow() throws {
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: base))
      try handle.seekToEnd()
      try handle.write(contentsOf: Data([0xFF, 0xD9]))
      try handle.close()
    }
    func expectChanged(_ what: String, _ body: () throws -> Void) {
      #expect(Comment(rawValue: what)) {
        try body()
      } throws: { error in
        guard case .input(let path, let problem)? = error as? RenderError else { return false }
        return path == base && problem.hasPrefix("the file changed while it was read")
      }
    }
    for step in ["scan", "read whole"] {
      _ = try codec.open(base)
      try grow()
      expectChanged(step) {
        if step == "scan" { _ = try codec.indexSplice(rects) } else { try codec.readCoefficients() }
      }
    }
    // Opened again: no change since, and it is read.
    _ = try codec.open(base)
    #expect(try codec.indexSplice(rects) == .ready)
  }

  /// A file larger than the window that is no JPEG, or that starts like one but whose header does not walk (bytes
  /// between segments, which libjpeg skips with a warning), opens as it does read whole: the same header, or the same
  /// refusal, and the same edit after it.
  @Test func aLargeFileOpensAsItDoesReadWhole() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let png = fixtures.path("photo.jpg")
    try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 4096)).write(
      to: URL(fileURLWithPath: png))
    let base = try fixtures.jpeg("base.jpg", width: 160, height: 120, subsampling: .half) { Fixtures.texture($0, $1) }
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: base)))
    bytes.insert(contentsOf: [0x12, 0x34], at: 2)
    let stray = fixtures.path("stray.jpg")
    try Data(bytes).write(to: URL(fileURLWithPath: stray))
    for path in [png, stray, base] {
      var outcomes: [String] = []
      for window in [0, 1024] {
        let codec = try #require(JPEGCodec())
        codec.readsThroughWindow(of: window)
        do {
          guard let facts = try codec.open(path) else {
            outcomes.append("not a JPEG")
            continue
          }
          try codec.readCoefficients()
          outcomes.append("\(facts)")
        } catch {
          outcomes.append("\(error)")
        }
      }
      #expect(outcomes[0] == outcomes[1], "\(path)")
      if path == png { #expect(outcomes[1] == "not a JPEG") }
    }
  }
}
