import CVips
import CVipsGlue
import StampFiles

/// Decodes a job's photo for the libvips path: upright, in the colour space the stamps are drawn in, streamed top
/// to bottom when the job allows it, with stampcam's JPEG reader when damage must be found in the one pass.
struct BaseDecoder {
  let inputs: InputPolicy
  let maxPixels: Int
  let maxFileBytes: Int
  /// The job decoded for: its control stops the decode, its codecs check a photo read by libvips.
  let context: JobContext
  /// Told the photo's reader before anything is decoded, when given (the output path's: `Renderer.stage`).
  var lender: ArraysLender? = nil

  /// The decoded photo, ready for the compositor.
  struct Decoded {
    /// Upright, 8-bit sRGB (or 16-bit RGB when asked and the photo is), with or without alpha.
    let base: Image
    /// The JPEG reader decoding it, when there is one (see `Composition`).
    let reader: JPEGStream?
    /// True when the photo is read once, top to bottom.
    let sequential: Bool
    /// True when the photo's ICC profile still describes `base`'s pixels.
    let keepsProfile: Bool
  }

  /// Decodes `file` (named `path` in messages). `stamped`: stamps will be drawn on it; `inOrder`: the picture made
  /// from it will be read top to bottom, once (see `Renderer.compose`); `sixteenBits`: a 16-bit photo stays 16-bit.
  func decode(_ file: InputFile, path: String, stamped: Bool, inOrder: Bool, sixteenBits: Bool) throws -> Decoded {
    let header = try Image.open(file, sequential: true, policy: inputs)
    guard header.width * header.height <= maxPixels else {
      throw RenderError.tooLarge(path: path, width: header.width, height: header.height, limit: maxPixels)
    }
    // Sequential decoding streams the photo top to bottom, once; rotating reads it in another order, and so does
    // drawing more than `layersPerComposite` stamps (each group's result is decoded to memory as it is built):
    // random access then (the whole photo decoded before the first row is written).
    let sequential = header.orientation == 1 && (inOrder || !stamped)
    // When corrupt data fails the job, a JPEG photo is decoded by stampcam's reader, which finds damage past the
    // last row as it decodes; otherwise libjpeg reads the file once more first (`JPEGTransplant.verify`).
    let reader =
      inputs.failOn >= .error
      ? JPEGStream.open(file, like: header, maxBytes: maxFileBytes, control: context.control) : nil
    // Only a photo read in order keeps its arrays to the end of the writing: one decoded whole first lets go of them
    // before the writing starts, as libjpeg's own do.
    lender?.prepare(sequential ? reader : nil)
    if reader == nil {
      try JPEGTransplant.verify(file, failOn: inputs.failOn, maxBytes: maxFileBytes, in: context)
    }
    let upright: Image
    if sequential {
      upright = try reader?.image(like: header) ?? header
    } else if let reader {
      // Read in another order: decoded whole first, in order (as libvips' loader does for random access).
      let photo = try reader.image(like: header)
      let whole = try reader.telling {
        try photo.evaluating(under: context.control) { try photo.derive("decode") { scv_copy_memory($0, &$1) } }
      }
      upright = try whole.derive("autorotate") { scv_autorot($0, &$1) }
    } else {
      upright = try Image.open(file, sequential: false, policy: inputs).derive("autorotate") { scv_autorot($0, &$1) }
    }
    // Stamps are sRGB; a photo in another space (grey, CMYK, 16-bit) is brought to 8-bit sRGB first, and its
    // ICC profile, which described the old space, goes.
    let native = upright.isEightBitSRGB
    let deep = sixteenBits && upright.format == VIPS_FORMAT_USHORT
    var base =
      native
      ? upright
      : try upright.derive("colour conversion") { deep ? scv_to_rgb16($0, &$1) : scv_to_srgb($0, &$1) }
    // A 16-bit RGB photo keeps its pixels as they were, and so its profile.
    let keepsProfile = native || (deep && vips_image_get_interpretation(upright.pointer) == VIPS_INTERPRETATION_RGB16)
    // The photo and its bands' crops all read the loader's line cache, which holds a few hundred rows around the one
    // being decoded: enough, as libvips writes the picture top to bottom. But an insert in a pipeline marked
    // sequential empties every cache upstream once its requests pass the piece it inserts by 1024 rows, and the
    // photo's other readers then re-read rows the decoder has gone past ("out of order read", seen with the bands 1408
    // rows apart). Unmarked while the bands are put in, marked again after.
    if sequential && stamped { base = try base.derive("stream") { scv_mark_sequential($0, &$1, 0) } }
    return Decoded(base: base, reader: reader, sequential: sequential, keepsProfile: keepsProfile)
  }
}
