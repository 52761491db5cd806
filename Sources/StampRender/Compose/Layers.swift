import CVips
import CVipsGlue

/// A transformed stamp ready to composite, with the integer box it covers on the base. Its image is made when it
/// is drawn (`makeImage`), so that a job of many stamps holds the decoded stamps and libvips' buffers of only
/// those being drawn.
struct Layer {
  let box: GridRect
  private let make: () throws -> Image
  var left: Int { box.left }
  var top: Int { box.top }
  var right: Int { box.right }
  var bottom: Int { box.bottom }

  /// A layer of an image made already.
  init(image: Image, left: Int, top: Int) {
    box = GridRect(left: left, top: top, width: image.width, height: image.height)
    make = { image }
  }

  /// A layer whose image `make` makes (its size must be the box's).
  init(box: GridRect, make: @escaping () throws -> Image) {
    self.box = box
    self.make = make
  }

  /// The transformed stamp's pixels (made anew by each call, unless made already).
  func makeImage() throws -> Image { try make() }
}

extension Image {
  /// A rectangle of this image (a view onto it, nothing is copied).
  func crop(_ left: Int, _ top: Int, _ width: Int, _ height: Int) throws -> Image {
    try derive("crop") { scv_crop($0, &$1, Int32(left), Int32(top), Int32(width), Int32(height)) }
  }

  /// This image with `piece` (the same bands and format, lying wholly inside it) in place of its pixels from
  /// (`left`, `top`). Nothing is copied: the pixels are read through from the two.
  func inserting(_ piece: Image, left: Int, top: Int) throws -> Image {
    try withExtendedLifetime(piece) {
      try derive("insert") { scv_insert($0, piece.pointer, Int32(left), Int32(top), &$1) }
    }
  }
}

/// Where to composite: the row bands that stamps cover and, in each, the columns they span.
///
/// A full-frame composite pushes every pixel of the photo through float blending to change the few under the
/// stamps. Cutting the frame into row bands, each with the columns its stamps span (its middle), composites only
/// the middles, each inserted in the photo's place; the rest is read through, and the photo's rows are still asked
/// for top to bottom (the bands do not share rows), so sequential decoding keeps working.
struct BandPlan: Equatable {
  struct Band: Equatable {
    var top: Int
    var bottom: Int
    var left: Int
    var right: Int
    /// Indices of the layers drawn in this band, in drawing order.
    var layers: [Int]
  }

  var bands: [Band]

  /// Groups layer boxes (left, top, right, bottom) into bands whose row ranges do not overlap.
  init(boxes: [(left: Int, top: Int, right: Int, bottom: Int)]) {
    let order = boxes.indices.sorted { boxes[$0].top < boxes[$1].top }
    var bands: [Band] = []
    for index in order {
      let box = boxes[index]
      if var last = bands.last, box.top < last.bottom {
        last.bottom = max(last.bottom, box.bottom)
        last.left = min(last.left, box.left)
        last.right = max(last.right, box.right)
        last.layers.append(index)
        bands[bands.count - 1] = last
      } else {
        bands.append(Band(top: box.top, bottom: box.bottom, left: box.left, right: box.right, layers: [index]))
      }
    }
    // Drawing order within a band must follow the plan, not the sort by top.
    self.bands = bands.map { band in
      var sorted = band
      sorted.layers.sort()
      return sorted
    }
  }
}
