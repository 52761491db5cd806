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

  /// A photo with such DCs and one stamp, each lossless way: with restart markers (the interval under the stamp is
  /// encoded again with the photo's tables), without them at DCs of 31000 (the splice declines: it shifts DCs by the
  /// prediction before each row, and the whole-photo edit with the photo's standard tables follows) and at 5000 (the
  /// splice encodes the stamp's rectangle). libjpeg-turbo's encoder would write the stamp's DC differences with no
  /// code, a corrupt output and the job reported done; the coefficients are checked before any write with fixed
  /// tables, and the job takes the pixel path, whose output libjpeg reads cleanly.
  @Test(arguments: [(level: 5000, restartInterval: UInt32(20)), (31000, 0), (5000, 0)])
  func aPhotoWithHugeDCsIsNotWrittenCorrupt(_ photo: (level: Int, restartInterval: UInt32)) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    // 160 x 120 at 4:4:4: 20 MCUs a row (a restart marker every row when there are markers).
    let good = try fixtures.jpeg(
      "good.jpg", width: 160, height: 120, subsampling: .none, restartInterval: Int(photo.restartInterval)
    ) { Fixtures.texture($0, $1) }
    let base = fixtures.path("huge.jpg")
    try Self.lumaDC(good, base, level: photo.level, restartInterval: photo.restartInterval)
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
