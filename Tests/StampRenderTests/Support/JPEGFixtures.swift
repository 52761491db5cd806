import CJPEGDirect
import CVips
import CVipsGlue
import Foundation
import StampTestShim
import StampTestSupport
import Testing

@testable import StampRender

/// libvips' chroma subsampling choices for JPEG (VipsForeignSubsample).
enum Subsampling: Int32, Sendable {
  /// 4:2:0: chroma at half resolution both ways.
  case half = 1
  /// 4:4:4: no subsampling.
  case none = 2
}

/// A test photo's JPEG layout: chroma subsampling, and a restart marker every so many MCUs (0: none).
struct JPEGLayout: CustomTestStringConvertible, Sendable {
  var subsampling: Subsampling
  var restartInterval = 0
  var testDescription: String {
    let sampling = subsampling == .half ? "4:2:0" : "4:4:4"
    return restartInterval > 0 ? "\(sampling), a restart marker every \(restartInterval) MCUs" : sampling
  }
}

extension Fixtures {
  /// Writes a JPEG with the given chroma subsampling, optionally progressive, tagged with an EXIF orientation and
  /// extra metadata fields (`fields` are libvips names such as "exif-ifd3-GPSLatitude"), with restart markers
  /// every `restartInterval` MCUs (0: none), with Huffman tables optimized for the picture or the standard ones.
  @discardableResult
  func jpeg(
    _ name: String, width: Int, height: Int, subsampling: Subsampling, quality: Int = 90, progressive: Bool = false,
    orientation: Int = 1, icc: Bool = false, fields: [String: String] = [:], restartInterval: Int = 0,
    optimizedTables: Bool = false, pixel: (Int, Int) -> [UInt8]
  ) throws -> String {
    let samples = Self.samples(width: width, height: height, bands: 3, pixel)
    var image = try Image.fromPixels(samples, width: width, height: height, bands: 3)
    if icc { image = try image.derive("icc") { scv_attach_srgb_profile($0, &$1) } }
    for (field, value) in fields.sorted(by: { $0.key < $1.key }) {
      image = try image.derive("set \(field)") { scv_set_string($0, &$1, field, value) }
    }
    if orientation != 1 {
      image = try image.derive("orient") { scv_set_orientation($0, &$1, Int32(orientation)) }
    }
    let target = path(name)
    let status = scv_save_jpeg_options(
      image.pointer, target, Int32(quality), subsampling.rawValue, progressive ? 1 : 0, Int32(restartInterval),
      optimizedTables ? 1 : 0)
    guard status == 0 else { throw RenderError.write(path: target, message: Vips.takeError()) }
    return target
  }

  /// Writes a one-component (grey) JPEG whose pixel at (x, y) is `value(x, y)`.
  @discardableResult
  func grayJPEG(
    _ name: String, width: Int, height: Int, progressive: Bool = false, value: (Int, Int) -> UInt8
  ) throws -> String {
    let samples = Self.samples(width: width, height: height, bands: 1) { [value($0, $1)] }
    let image = try Image.fromPixels(samples, width: width, height: height, bands: 1)
    let target = path(name)
    let status = scv_save_jpeg_options(image.pointer, target, 90, 0, progressive ? 1 : 0, 0, 0)
    guard status == 0 else { throw RenderError.write(path: target, message: Vips.takeError()) }
    return target
  }

  /// A deterministic texture with detail in every block, so every block has AC coefficients to lose.
  static func texture(_ x: Int, _ y: Int) -> [UInt8] {
    let wave = sin(Double(x) * 0.21) * cos(Double(y) * 0.17)
    let hash = (x &* 73_856_093 ^ y &* 19_349_663) & 31
    return [
      UInt8(clamping: 110 + Int(wave * 70) + hash), UInt8(clamping: 90 + (x + 2 * y) % 80 + hash / 2),
      UInt8(clamping: 140 - Int(wave * 50) + (x * y) % 23),
    ]
  }
}

/// A block's column and row in one component's block grid.
struct BlockIndex: Hashable, Sendable, CustomStringConvertible {
  var x: Int
  var y: Int
  var description: String { "(\(x), \(y))" }
}

/// The blocks of `component` whose DCT coefficients differ between two JPEGs (read with libjpeg).
func differingBlocks(_ a: String, _ b: String, component: Int) throws -> (wide: Int, high: Int, blocks: Set<BlockIndex>)
{
  var wide: Int32 = 0
  var high: Int32 = 0
  var message = [CChar](repeating: 0, count: 512)
  var mask = [UInt8](repeating: 0, count: 1 << 20)
  let count = mask.withUnsafeMutableBufferPointer { m in
    message.withUnsafeMutableBufferPointer { text in
      sjt_diff_blocks(a, b, Int32(component), m.baseAddress, m.count, &wide, &high, text.baseAddress, text.count)
    }
  }
  let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  try #require(count >= 0, "comparing blocks failed (\(count)): \(text)")
  var blocks = Set<BlockIndex>()
  for y in 0..<Int(high) {
    for x in 0..<Int(wide) where mask[y * Int(wide) + x] != 0 { blocks.insert(BlockIndex(x: x, y: y)) }
  }
  #expect(blocks.count == Int(count))
  return (Int(wide), Int(high), blocks)
}

/// Decoded pixels after the EXIF orientation is applied, as a viewer shows them.
func uprightPixels(_ path: String) throws -> Pixels {
  let file = try Image.open(path, sequential: false)
  let upright = try file.derive("autorotate") { scv_autorot($0, &$1) }
  return try Pixels(upright)
}

extension Pixels {
  /// The pixels of an image already open.
  init(_ image: Image) throws {
    self.init(width: image.width, height: image.height, bands: image.bands, samples: try image.pixels())
  }
}

extension [UInt8] {
  /// Where the JPEG marker FF `code` stands in these bytes, first to last.
  func markers(_ code: UInt8) -> [Int] {
    indices.dropLast().filter { self[$0] == 0xFF && self[$0 + 1] == code }
  }
}
