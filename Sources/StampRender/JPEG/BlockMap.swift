import Foundation
import StampCore

/// Where a baseline JPEG keeps its 8 x 8 blocks: the iMCU grid and each component's sampling, in the stored frame.
///
/// An iMCU is 8 * hmax x 8 * vmax pixels. Component c has h_c x v_c blocks per iMCU, so one of its blocks covers
/// 8 * hmax / h_c x 8 * vmax / v_c pixels (16 x 16 for the chroma of 4:2:0, 8 x 8 for everything in 4:4:4).
struct BlockMap: Equatable, Sendable {
  /// A component's sampling factors.
  struct Sampling: Equatable, Hashable, Sendable {
    var h: Int
    var v: Int

    init(_ h: Int, _ v: Int) {
      self.h = h
      self.v = v
    }
  }

  /// Stored size in pixels.
  var width: Int
  var height: Int
  /// One entry per component, luma first.
  var sampling: [Sampling]

  var maxH: Int { sampling.map(\.h).max() ?? 1 }
  var maxV: Int { sampling.map(\.v).max() ?? 1 }
  var mcuWidth: Int { 8 * maxH }
  var mcuHeight: Int { 8 * maxV }
  var mcusWide: Int { (width + mcuWidth - 1) / mcuWidth }
  var mcusHigh: Int { (height + mcuHeight - 1) / mcuHeight }

  /// The pixels one block of `component` covers.
  func blockSize(_ component: Int) -> (width: Int, height: Int) {
    (mcuWidth / sampling[component].h, mcuHeight / sampling[component].v)
  }

  /// How many blocks of `component` span a rectangle of the given pixel size starting on the iMCU grid (libjpeg's
  /// count: ceil(pixels * h / (8 * hmax))).
  func blocks(_ component: Int, width: Int, height: Int) -> (wide: Int, high: Int) {
    let (bw, bh) = blockSize(component)
    return ((width + bw - 1) / bw, (height + bh - 1) / bh)
  }

  /// The iMCUs a pixel rectangle touches, within the image; nil when it lies wholly outside.
  func mcus(touching pixels: GridRect) -> GridRect? {
    guard let clipped = pixels.grown(by: 0, within: width, height) else { return nil }
    return GridRect(
      left: clipped.left / mcuWidth, top: clipped.top / mcuHeight,
      right: (clipped.right + mcuWidth - 1) / mcuWidth, bottom: (clipped.bottom + mcuHeight - 1) / mcuHeight)
  }

  /// The pixels of an iMCU rectangle, cut at the image's right and bottom edges.
  func pixels(of mcus: GridRect) -> GridRect {
    GridRect(
      left: mcus.left * mcuWidth, top: mcus.top * mcuHeight,
      width: min(mcus.right * mcuWidth, width) - mcus.left * mcuWidth,
      height: min(mcus.bottom * mcuHeight, height) - mcus.top * mcuHeight)
  }

  /// iMCUs of margin a region needs so that its own blocks decode to the same pixels as the whole file does: one
  /// when chroma is subsampled (libjpeg's smooth upsampling reads the neighbouring chroma samples), none when every
  /// component has the same sampling (each block then decodes alone: its inverse DCT and colour conversion).
  var regionMargin: Int { Set(sampling).count == 1 ? 0 : 1 }

  /// The iMCU rectangles to decode for stamps covering `boxes` (pixels): each box's iMCUs grown by `margin` iMCUs,
  /// merged until no two overlap, so each region's edits are its own.
  func regions(touching boxes: [GridRect], margin: Int) -> [GridRect] {
    var regions = boxes.compactMap { mcus(touching: $0)?.grown(by: margin, within: mcusWide, mcusHigh) }
    // Passes until one merges nothing. Within a pass a region that grew is checked again against the ones after it
    // (starting over after each merge made 1000 stamps in an unlucky order take seconds); whatever the order, the
    // regions in the end are the same: a merged box lies inside one of the final ones.
    var merged = true
    while merged {
      merged = false
      var i = 0
      while i < regions.count {
        var j = i + 1
        while j < regions.count {
          if regions[i].intersects(regions[j]) {
            regions[i] = regions[i].union(regions[j])
            regions.remove(at: j)
            merged = true
            j = i + 1
          } else {
            j += 1
          }
        }
        i += 1
      }
    }
    return regions.sorted { ($0.top, $0.left) < ($1.top, $1.left) }
  }

  /// A region (iMCUs) cut into strips of at most `rows` iMCU rows, top to bottom: each strip's own rows (`rows`, in
  /// iMCU rows) and the iMCUs to decode for them (`decode`: those rows with up to `margin` more of the region's
  /// above and below, the context their blocks need to decode as they do in the whole file).
  func strips(of region: GridRect, rows: Int, margin: Int) -> [(decode: GridRect, rows: Range<Int>)] {
    stride(from: region.top, to: region.bottom, by: max(rows, 1)).map { top in
      let bottom = min(top + max(rows, 1), region.bottom)
      let decodeTop = max(top - margin, region.top)
      let decodeBottom = min(bottom + margin, region.bottom)
      let decode = GridRect(left: region.left, top: decodeTop, width: region.width, height: decodeBottom - decodeTop)
      return (decode, top..<bottom)
    }
  }

  /// For a region of `width` x `height` pixels starting on the iMCU grid, one mask per component marking (1) the
  /// blocks that hold at least one pixel whose samples differ between `before` and `after` (interleaved, `bands`;
  /// each buffer at least width x height x bands bytes), among the blocks of pixel rows `rows` (relative to the
  /// region, on the iMCU grid; all rows when nil).
  func changedBlocks(
    width: Int, height: Int, before: UnsafeRawBufferPointer, after: UnsafeRawBufferPointer, bands: Int,
    rows: Range<Int>? = nil
  ) -> [[UInt8]] {
    // Changes on the finest grid (8 x 8 pixels) first; every component's block is a whole number of those cells.
    let cellsWide = (width + 7) / 8
    let cellsHigh = (height + 7) / 8
    var cells = [Bool](repeating: false, count: cellsWide * cellsHigh)
    let scanned = rows.map { max($0.lowerBound, 0)..<min($0.upperBound, height) } ?? 0..<height
    precondition(before.count >= width * height * bands && after.count >= width * height * bands)
    if let old = before.baseAddress, let new = after.baseAddress {
      for y in scanned {
        let row = y * width * bands
        let cellRow = (y / 8) * cellsWide
        // A cell's part of the row compared at once; a cell found changed is not read again.
        for cx in 0..<cellsWide where !cells[cellRow + cx] {
          let start = row + cx * 8 * bands
          let count = (min(cx * 8 + 8, width) - cx * 8) * bands
          if memcmp(old + start, new + start, count) != 0 { cells[cellRow + cx] = true }
        }
      }
    }
    return sampling.indices.map { c in
      let (bw, bh) = blockSize(c)
      let (wide, high) = blocks(c, width: width, height: height)
      var mask = [UInt8](repeating: 0, count: wide * high)
      for cy in 0..<cellsHigh {
        for cx in 0..<cellsWide where cells[cy * cellsWide + cx] {
          mask[(cy * 8 / bh) * wide + cx * 8 / bw] = 1
        }
      }
      return mask
    }
  }
}
