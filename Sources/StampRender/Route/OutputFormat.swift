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
}

extension OutputTarget {
  /// The format the name's extension asks for.
  var format: OutputFormat? { OutputFormat(path: name) }
}
