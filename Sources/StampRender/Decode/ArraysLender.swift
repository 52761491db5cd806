/// Lends a progressive JPEG photo's reader an idle codec's kept coefficient arrays for one output, and lets the idle
/// codecs go for any other photo (the pixel path needs no arrays), before anything is decoded (see `Renderer.stage`).
///
/// libjpeg decodes a progressive photo whole into coefficient arrays before its first row, 72 MB for 12 megapixels,
/// allocated for that photo alone and faulted in page by page (grain's progressive photos at `quality: 90`: 246,000
/// page faults for 12 jobs against 45,000 for 12 others). Decoded into a codec's arrays instead, kept from photo to
/// photo, they are faulted in once.
final class ArraysLender {
  /// The run's idle codecs, lent from and given back to.
  private let pool: JPEGCodecPool
  private var codec: JPEGCodec?
  private var reader: JPEGStream?

  /// A lender of `pool`'s codecs.
  init(pool: JPEGCodecPool) {
    self.pool = pool
  }

  /// True while a codec's arrays are lent.
  var lends: Bool { codec != nil }

  /// Called once the photo's reader is known (nil: libvips decodes it), before it decodes anything. Every other idle
  /// codec goes: the pixel path needs no more arrays than the one lent.
  func prepare(_ reader: JPEGStream?) {
    defer { pool.dropIdle() }
    guard let reader, reader.isMultiscan, let codec = try? pool.take(), reader.decode(into: codec)
    else { return }
    (self.codec, self.reader) = (codec, reader)
  }

  /// Ends the reader (it lets go of the arrays, waiting for a read in flight) and gives the codec back; nothing when
  /// none was lent.
  func finish() {
    guard let codec else { return }
    reader?.end()
    (self.codec, self.reader) = (nil, nil)
    pool.give(codec)
  }
}
