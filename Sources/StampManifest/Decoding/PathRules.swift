/// How manifest paths are read: inputs relative to the manifest's folder, outputs confined under `--out`.
///
/// A path is its bytes, as the file system sees it: split at the byte `/` and compared byte for byte. Swift's
/// `Character`s would join a `/` with a combining mark after it into one character (so `../\u{301}d` would be one
/// harmless-looking component, and `/\u{301}tmp` not absolute), and `String ==` would call `é` in NFC and in NFD one
/// name where Linux holds two files.
import StampCore

package enum PathRules {
  /// The byte `/`.
  package static let slash = UInt8(ascii: "/")

  /// The folder under `--out` where `render` keeps its resume records: no output goes in it.
  package static let recordsFolder = ".stampcam"

  /// True when `path` starts at the file system's root.
  package static func isAbsolute(_ path: String) -> Bool { path.utf8.first == slash }

  /// The non-empty components of `path`, split at every `/` byte (`a//b/` -> `a`, `b`).
  package static func components(_ path: String) -> [String] {
    path.utf8.split(separator: slash).map { String(decoding: $0, as: UTF8.self) }
  }

  /// True when `name` is the component `.` or `..`, byte for byte.
  package static func isDots(_ name: some StringProtocol) -> Bool {
    name.utf8.elementsEqual(".".utf8) || name.utf8.elementsEqual("..".utf8)
  }

  /// `path` resolved against `folder` (empty for the current folder); absolute paths are kept.
  static func resolve(_ path: String, in folder: String) -> String {
    if isAbsolute(path) || folder.isEmpty { return path }
    return folder.utf8.last == slash ? folder + path : folder + "/" + path
  }

  /// The folder part of a file's path: `a/b` for `a/b/m.json`, empty for `m.json`, `/` for `/m.json`.
  package static func folder(of file: String) -> String {
    guard let slash = file.utf8.lastIndex(of: slash) else { return "" }
    return slash == file.startIndex ? "/" : String(decoding: file.utf8[..<slash], as: UTF8.self)
  }

  /// Why an output path would not stay under `--out`, name a file, or stay within `maxComponents` components (no
  /// batch needs folders nested deeper, and each one is a folder made), or nil when it is fine.
  static func problem(withOutput path: String, maxComponents: Int = Limits().maxOutputComponents) -> String? {
    if isAbsolute(path) { return "must be relative to --out, not absolute (\"\(path)\")" }
    let parts = path.utf8.split(separator: slash, omittingEmptySubsequences: false)
    if parts.contains(where: { $0.elementsEqual("..".utf8) }) {
      return "must not contain a '..' component (outputs stay under --out)"
    }
    let kept = components(normalize(path))
    if kept.isEmpty || path.utf8.last == slash || parts.last?.elementsEqual(".".utf8) == true {
      return "must name a file, not a folder"
    }
    if kept.first?.utf8.elementsEqual(recordsFolder.utf8) == true {
      return "must not be in \(recordsFolder)/, where render keeps its resume records and output claims"
    }
    if kept.count > maxComponents {
      return "has \(kept.count) components; at most \(maxComponents) (folders nested deeper are refused)"
    }
    return nil
  }

  /// `a/./b//c` -> `a/b/c`.
  static func normalize(_ path: String) -> String {
    components(path).filter { !$0.utf8.elementsEqual(".".utf8) }.joined(separator: "/")
  }

  /// `a/b.jpg` -> `a/b.overlay.jpg`: a job's overlay is a copy of its output in the same format, beside it.
  package static func overlay(of output: String) -> String {
    let bytes = output.utf8
    let name = bytes.lastIndex(of: slash).map { bytes.index(after: $0) } ?? bytes.startIndex
    guard let dot = bytes[name...].lastIndex(of: UInt8(ascii: ".")), dot > name else { return output + ".overlay" }
    return String(decoding: bytes[..<dot], as: UTF8.self) + ".overlay" + String(decoding: bytes[dot...], as: UTF8.self)
  }
}
