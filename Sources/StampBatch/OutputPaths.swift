import Foundation

/// Keeps every output under the output folder: no absolute paths, no `..`, no symlink leading out, no input
/// overwritten.
struct OutputPaths: Sendable {
  /// The output folder's real path (symlinks resolved).
  let root: String

  /// Creates the output folder when missing and remembers its real path.
  init(folder: String) throws {
    var exists: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder, isDirectory: &exists), !exists.boolValue {
      throw BatchError.outputFolder(path: folder, message: "it exists and is not a folder")
    }
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw BatchError.outputFolder(path: folder, message: (error as NSError).localizedDescription)
    }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
      throw BatchError.outputFolder(path: folder, message: "not a folder")
    }
    root = Self.realPath(folder)
  }

  /// The absolute path for a job's relative output, its folders created, after checking it stays inside the root
  /// and names none of `inputs` (real paths).
  func resolve(_ relative: String, job: String, inputs: Set<String>) throws -> String {
    if relative.hasPrefix("/") {
      throw BatchError.unsafeOutput(job: job, path: relative, reason: "must be relative to --out, not absolute")
    }
    let parts = relative.split(separator: "/", omittingEmptySubsequences: true)
    if parts.contains("..") || parts.isEmpty {
      throw BatchError.unsafeOutput(job: job, path: relative, reason: "must stay inside --out (no '..')")
    }
    let target = root + "/" + parts.joined(separator: "/")
    let folder = (target as NSString).deletingLastPathComponent
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw BatchError.unsafeOutput(job: job, path: relative, reason: (error as NSError).localizedDescription)
    }
    // A symlinked folder (or file) under --out may point anywhere: judge the real path.
    let realFolder = Self.realPath(folder)
    guard realFolder == root || realFolder.hasPrefix(root + "/") else {
      throw BatchError.unsafeOutput(job: job, path: relative, reason: "leads outside --out through a symbolic link")
    }
    let real = realFolder + "/" + (target as NSString).lastPathComponent
    if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: real) {
      throw BatchError.unsafeOutput(
        job: job, path: relative, reason: "is a symbolic link (to \(link)); not replacing it")
    }
    if inputs.contains(real) {
      throw BatchError.unsafeOutput(job: job, path: relative, reason: "would overwrite an input file")
    }
    return real
  }

  /// The path with every symlink resolved (the path itself when it does not exist).
  static func realPath(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
