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

  /// The longest name a file system takes (NAME_MAX), in bytes.
  package static let nameMax = 255
  /// The longest path a file system takes (PATH_MAX less its terminating zero), in bytes.
  package static let pathMax = 4095
  /// The most bytes a temporary file's name adds to its output's name (StampFiles' `TemporaryName`: the leading
  /// dot, `.stampcam-`, eight hex digits, `-`, a pid of up to ten digits, `-`, eight hex digits and `.tmp`).
  package static let temporaryNameOverhead = 43
  /// The longest output file or folder name, in bytes, whose temporary name still fits in `nameMax`.
  package static let longestName = nameMax - temporaryNameOverhead

  /// Why an output path is refused: the rule it breaks, told in the words of every place that refuses it.
  package enum Refusal: Error, Hashable, CustomStringConvertible {
    /// The path starts at the file system's root.
    case absolute(path: String)
    /// A component is `..`.
    case parent
    /// The path names a folder (empty, ending in `/` or `.`).
    case notAFile
    /// The path lies in `--out/.stampcam`, render's own folder.
    case inRecordsFolder
    /// More components than `limit`.
    case tooDeep(components: Int, limit: Int)
    /// A component longer than `longestName`, which leaves no room for its temporary file's suffix.
    case nameTooLong(name: String)

    /// The rule, in lower case, as a clause after the path.
    package var description: String {
      switch self {
      case .absolute(let path): return "must be relative to --out, not absolute (\"\(path)\")"
      case .parent: return "must not contain a '..' component (outputs stay under --out)"
      case .notAFile: return "must name a file, not a folder"
      case .inRecordsFolder:
        return "must not be in \(recordsFolder)/, where render keeps its resume records and output claims"
      case .tooDeep(let count, let limit):
        return "has \(count) components; at most \(limit) (folders nested deeper are refused)"
      case .nameTooLong(let name):
        return "\"\(name.prefix(40))...\": a name of \(name.utf8.count) bytes is too long (at most \(longestName), "
          + "leaving room for the temporary file's suffix)"
      }
    }
  }

  /// The rule an output path breaks, or nil when it stays under `--out`, names a file outside render's own folder,
  /// and has at most `maxComponents` components (no batch needs folders nested deeper, and each one is a folder
  /// made). Names' lengths are `longName(in:)`'s rule: the decoder leaves them to the checks made before a run.
  package static func refusal(
    ofOutput path: String, maxComponents: Int = Limits().maxOutputComponents
  ) -> Refusal? {
    if isAbsolute(path) { return .absolute(path: path) }
    let parts = path.utf8.split(separator: slash, omittingEmptySubsequences: false)
    if parts.contains(where: { $0.elementsEqual("..".utf8) }) { return .parent }
    let kept = components(normalize(path))
    if kept.isEmpty || path.utf8.last == slash || parts.last?.elementsEqual(".".utf8) == true { return .notAFile }
    if kept.first?.utf8.elementsEqual(recordsFolder.utf8) == true { return .inRecordsFolder }
    if kept.count > maxComponents { return .tooDeep(components: kept.count, limit: maxComponents) }
    return nil
  }

  /// A component of the output `path` too long for its temporary file's name (see `longestName`), or nil.
  package static func longName(in path: String) -> Refusal? {
    components(path).first { $0.utf8.count > longestName }.map { .nameTooLong(name: $0) }
  }

  /// Every rule an output path must keep at render, where a job may come from elsewhere than the decoder: the
  /// first one `path` breaks, or nil.
  package static func renderRefusal(
    ofOutput path: String, maxComponents: Int = Limits().maxOutputComponents
  ) -> Refusal? {
    refusal(ofOutput: path, maxComponents: maxComponents) ?? longName(in: path)
  }

  /// `a/./b//c` -> `a/b/c`.
  package static func normalize(_ path: String) -> String {
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
