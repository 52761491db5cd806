/// The file formats stampcam writes, chosen by the output's extension.
public enum OutputFormat: String, Sendable, CaseIterable {
  case jpeg, png, webp, tiff

  /// The format for a path's extension (case-insensitive), or nil when stampcam cannot write it.
  public init?(path: String) {
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
