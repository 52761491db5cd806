import CJPEG
import Foundation
import StampCore
import Testing

@testable import StampRender

/// Photos whose DC coefficients lie far outside what 8-bit samples give (libjpeg reads them without a warning, the
/// pixels clamped): a stamp's blocks beside theirs make DC differences of more than 2047, which no baseline code
/// carries. libjpeg-turbo's Huffman encoder with fixed tables writes such a difference with no code and no error.
@Suite("Photos with out-of-range DC coefficients")
struct JPEGOutOfRangeTests {
  /// Writes `source`'s coefficients (a 4:4:4 JPEG: one luma block an MCU, in rows) to `target` with every luma DC
  /// at `level`, each block row stepping up to it from its start by 2000 at most (so that every coded difference
  /// stays in baseline's range, whether or not a restart marker starts each row), with the standard tables and a
  /// restart marker every `restartInterval` MCUs (0: none). libjpeg reads it without a warning.
  static func lumaDC(_ source: String, _ target: String, level: Int, restartInterval: UInt32) throws {
    var errors = (jpeg_error_mgr(), jpeg_error_mgr())
    var d = jpeg_decompress_struct()
    d.err = jpeg_std_error(&errors.0)
    jpeg_CreateDecompress(&d, JPEG_LIB_VERSION, MemoryLayout<jpeg_decompress_struct>.size)
    defer { jpeg_destroy_decompress(&d) }
    let input = try #require(fopen(source, "rb"))
    defer { fclose(input) }
    jpeg_stdio_src(&d, input)
    jpeg_read_header(&d, 1)
    let arrays = try #require(jpeg_read_coefficients(&d))
    let luma = try #require(d.comp_info).pointee
    let access = try #require(d.mem.pointee.access_virt_barray)
    try withUnsafeMutablePointer(to: &d) { pointer in
      let common = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: jpeg_common_struct.self)
      for y in 0..<luma.height_in_blocks {
        let rows = try #require(access(common, arrays[0], y, 1, 1))
        let row = try #require(rows[0])
        var value = 0
        for x in 0..<Int(luma.width_in_blocks) {
          // Every row steps up from its start: from 0 after a restart marker, and harmlessly from the level before.
          value = y == 0 || restartInterval > 0 ? min(value + 2000, level) : level
          row[x].0 = JCOEF(value)
        }
      }
    }
    var c = jpeg_compress_struct()
    c.err = jpeg_std_error(&errors.1)
    jpeg_CreateCompress(&c, JPEG_LIB_VERSION, MemoryLayout<jpeg_compress_struct>.size)
    defer { jpeg_destroy_compress(&c) }
    let output = try #require(fopen(target, "wb"))
    defer { fclose(output) }
    jpeg_stdio_dest(&c, output)
    jpeg_copy_critical_parameters(&d, &c)
    c.restart_interval = restartInterval
    jpeg_write_coefficients(&c, arrays)
    jpeg_finish_compress(&c)
    jpeg_finish_decompress(&d)
  }

  /// With restart markers, the interval under the stamp is encoded again with the photo's tables: the stamp's DCs
  /// beside the photo's 5000 need differences no code carries, and the output is written corrupt, the job reported
  /// as done.
  @Test(
    .disabled(
      "the restart-interval path encodes DC differences over 2047 without a code (libjpeg-turbo's encoder does not check them)"
    ))
  func aRestartIntervalPhotoWithHugeDCsIsNotWrittenCorrupt() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    // 160 x 120 at 4:4:4: 20 MCUs a row, a restart marker every row.
    let good = try fixtures.jpeg("good.jpg", width: 160, height: 120, subsampling: .none, restartInterval: 20) {
      Fixtures.texture($0, $1)
    }
    let base = fixtures.path("huge.jpg")
    try Self.lumaDC(good, base, level: 5000, restartInterval: 20)
    try readStrictly(base)
    let output = fixtures.path("out.jpg")
    _ = try Renderer().render(fixtures.redStamps(on: base), to: output)
    try readStrictly(output)
  }

  /// Without restart markers and with DCs over 30000 the splice declines (it shifts DCs by the prediction before
  /// each row) and the whole-photo edit writes the stamp's DC differences with no code: the output is corrupt, the
  /// job reported as done.
  @Test(
    .disabled(
      "the whole-photo edit encodes DC differences over 2047 without a code (libjpeg-turbo's encoder does not check them)"
    ))
  func aPhotoWithHugeDCsIsNotWrittenCorrupt() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let good = try fixtures.jpeg("good.jpg", width: 160, height: 120, subsampling: .none) { Fixtures.texture($0, $1) }
    let base = fixtures.path("huge.jpg")
    try Self.lumaDC(good, base, level: 31000, restartInterval: 0)
    try readStrictly(base)
    let output = fixtures.path("out.jpg")
    _ = try Renderer().render(fixtures.redStamps(on: base), to: output)
    try readStrictly(output)
  }

  /// Without restart markers and with DCs of 5000 the splice encodes the stamp's rectangle, finds the encoding does
  /// not scan (the differences had no code), and the job takes the pixel path, whose output libjpeg reads cleanly.
  @Test func aSplicedPhotoWithHugeDCsFallsBackToPixels() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let good = try fixtures.jpeg("good.jpg", width: 160, height: 120, subsampling: .none) { Fixtures.texture($0, $1) }
    let base = fixtures.path("huge.jpg")
    try Self.lumaDC(good, base, level: 5000, restartInterval: 0)
    try readStrictly(base)
    let output = fixtures.path("out.jpg")
    let path = try Renderer().render(fixtures.redStamps(on: base), to: output)
    guard case .libvips = path else {
      Issue.record("a photo whose stamp needs DC differences no code carries took the \(path) path")
      return
    }
    try readStrictly(output)
  }
}
