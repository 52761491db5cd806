import StampFiles

/// The file formats stampcam writes, chosen by the output's extension.
package enum OutputFormat: String, Sendable, CaseIterable {
  case jpeg, png, webp, tiff

  /// The format for a path's extension (case-insensitive), or nil when stampcam cannot write it.
  package init?(path: String) {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
    switch path[path.index(after: dot)...].lowercased() {
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
