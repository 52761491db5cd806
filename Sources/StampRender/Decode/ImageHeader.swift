import StampCore
import StampFiles

/// What an image's header says, read without decoding its pixels.
package struct ImageHeader: Sendable, Hashable {
  /// Stored width in pixels (before EXIF orientation).
  package var width: Int
  /// Stored height in pixels (before EXIF orientation).
  package var height: Int
  /// EXIF orientation 1...8 (1 when absent).
  package var orientation: Int

  /// Creates a header.
  package init(width: Int, height: Int, orientation: Int) {
    self.width = width
    self.height = height
    self.orientation = orientation
  }

  /// True when orientation 5...8 swaps width and height.
  package var swapsAxes: Bool { orientation >= 5 && orientation <= 8 }

  /// The size in image space: upright, after the orientation is applied.
  package var uprightSize: StampSize {
    swapsAxes ? StampSize(Double(height), Double(width)) : StampSize(Double(width), Double(height))
  }

  /// Reads a file's header; its pixels are not decoded.
  package static func read(_ path: String) throws -> ImageHeader {
    try read(InputFile.open(path), policy: InputPolicy())
  }

  /// Reads an opened input's header with the loaders `policy` allows; its pixels are not decoded. When the loader
  /// refuses the header, the file is read again alone for the reason (see `RenderError.diagnosed`): a loader may
  /// say why only in its warnings (libpng's "Image height exceeds user limit in IHDR"), which the shared error
  /// buffer does not hold, and the buffer may hold another job's text instead.
  package static func read(_ file: InputFile, policy: InputPolicy) throws -> ImageHeader {
    do {
      let image = try Image.open(file, sequential: true, policy: policy)
      return ImageHeader(width: image.width, height: image.height, orientation: image.orientation)
    } catch let error as RenderError {
      switch error {
      case .refused(_, .unknownFormat, _):
        // A file no loader knows keeps the open's own words.
        throw error
      case .unreadable(let path, _), .refused(let path, _, _):
        throw error.diagnosed(reading: path)
      default:
        throw error
      }
    }
  }
}
