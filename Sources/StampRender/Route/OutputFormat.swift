import StampFiles

/// The file formats stampcam writes, chosen by the output's extension.
package enum OutputFormat: String, Sendable, CaseIterable {
  case jpeg, png, webp, tiff

  /// The format for a path's extension (case-insensitive), or nil when stampcam cannot write it.
  package init?(path: String) {
    // Bytes: a `/` joined to a combining mark after it is one Character, and a Character search would miss it.
    let bytes = path.utf8
    guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), !bytes[dot...].contains(UInt8(ascii: "/")) else {
      return nil
    }
    switch String(decoding: bytes[bytes.index(after: dot)...], as: UTF8.self).lowercased() {
    case "jpg", "jpeg": self = .jpeg
    case "png": self = .png
    case "webp": self = .webp
    case "tif", "tiff": self = .tiff
    default: return nil
    }
  }

  /// The format's name as people write it.
  package var name: String {
    switch self {
    case .jpeg: return "JPEG"
    case .png: return "PNG"
    case .webp: return "WebP"
    case .tiff: return "TIFF"
    }
  }

  /// The most pixels a side the format's writer takes (tried with libvips 8.14 on Debian 12): libjpeg refuses more
  /// than 65,500 (its JPEG_MAX_DIMENSION), libwebp more than 16,383 (its header holds 14 bits). libvips' PNG and
  /// TIFF writers took 10,000,000 a side, the most libvips holds (VIPS_MAX_COORD), which no photo it reads exceeds.
  package var maxSide: Int {
    switch self {
    case .jpeg: return 65_500
    case .webp: return 16_383
    case .png, .tiff: return 10_000_000
    }
  }

  /// Why a picture of `width` x `height` pixels cannot be written in this format, or nil when it can.
  package func problem(width: Int, height: Int) -> String? {
    guard width > maxSide || height > maxSide else { return nil }
    return "it would be \(width) x \(height) pixels, and \(name) holds at most \(maxSide) pixels a side"
  }
}

extension OutputTarget {
  /// The format the name's extension asks for.
  var format: OutputFormat? { OutputFormat(path: name) }
}
