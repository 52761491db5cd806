/// A path as a key of a set or dictionary: its UTF-8 bytes, compared byte for byte as the file system compares
/// names. Swift's `String ==` compares canonically, so `é.png` in NFC and in NFD, two files on Linux, would be one key.
package struct PathKey: Hashable, Sendable {
  /// The path's bytes.
  package let bytes: [UInt8]

  /// The key of `path`.
  package init(_ path: String) {
    bytes = Array(path.utf8)
  }
}

extension PathKey {
  /// True when this real path lies inside the real folder `root`: `root` is `/`, or this path's bytes are the
  /// root's followed by `/` and more.
  package func isInside(_ root: String) -> Bool {
    let folder = Array(root.utf8)
    if folder == [UInt8(ascii: "/")] { return true }
    return bytes.count > folder.count + 1 && bytes.starts(with: folder) && bytes[folder.count] == UInt8(ascii: "/")
  }
}
