/// How manifest paths are read: inputs relative to the manifest's folder, outputs confined under `--out`.
enum PathRules {
  /// `path` resolved against `folder` (empty for the current folder); absolute paths are kept.
  static func resolve(_ path: String, in folder: String) -> String {
    if path.hasPrefix("/") || folder.isEmpty { return path }
    return folder.hasSuffix("/") ? folder + path : folder + "/" + path
  }

  /// The folder part of a file's path: `a/b` for `a/b/m.json`, empty for `m.json`, `/` for `/m.json`.
  static func folder(of file: String) -> String {
    guard let slash = file.lastIndex(of: "/") else { return "" }
    return slash == file.startIndex ? "/" : String(file[..<slash])
  }

  /// Why an output path would not stay under `--out` or name a file, or nil when it is fine.
  static func problem(withOutput path: String) -> String? {
    if path.hasPrefix("/") { return "must be relative to --out, not absolute (\"\(path)\")" }
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    if parts.contains("..") { return "must not contain a '..' component (outputs stay under --out)" }
    if normalize(path).isEmpty || path.hasSuffix("/") || parts.last == "." { return "must name a file, not a folder" }
    if normalize(path).split(separator: "/").first.map({ Array($0.utf8) }) == Array(".stampcam".utf8) {
      return "must not go in .stampcam, the folder of render's resume records and output claims"
    }
    return nil
  }

  /// `a/./b//c` -> `a/b/c`.
  static func normalize(_ path: String) -> String {
    path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
  }
}
