@testable import StampRender

// The tests' way into the JPEG path's buffers: Swift arrays in and out (the renderer keeps its own buffers).

extension JPEGCodec {
  /// The RGB pixels of a stored-frame rectangle on the iMCU grid, decoded from its own blocks.
  func decode(_ rect: GridRect) throws -> [UInt8] {
    var rgb = [UInt8](repeating: 0, count: max(rect.width, 0) * max(rect.height, 0) * 3)
    try rgb.withUnsafeMutableBytes { try decode(rect, into: $0) }
    return rgb
  }

  /// `replace` from an array.
  func replace(_ rect: GridRect, rgb: [UInt8], masks: [[UInt8]]) throws {
    try rgb.withUnsafeBytes { try replace(rect, rgb: $0, masks: masks) }
  }
}

extension BlockMap {
  /// `changedBlocks` over arrays.
  func changedBlocks(
    width: Int, height: Int, before: [UInt8], after: [UInt8], bands: Int, rows: Range<Int>? = nil
  ) -> [[UInt8]] {
    before.withUnsafeBytes { old in
      after.withUnsafeBytes { new in
        changedBlocks(width: width, height: height, before: old, after: new, bands: bands, rows: rows)
      }
    }
  }
}
