import Foundation
import StampCore
import StampFiles
import StampManifest
import StampRender
import StampSystem

/// Keeps every output under the output folder: no absolute paths, no `..`, no symbolic link followed, no input
/// overwritten. The folder is opened once; each output's folders are walked (and made) one component at a time
/// from that descriptor, never through a symbolic link, so nothing is created or written outside it, even when a
/// folder inside is swapped for a link while a job runs.
package struct OutputPaths: Sendable {
  /// The output folder, held open.
  let folder: Folder
  /// Folders whose stale temporaries (of runs that died) were removed in this run.
  private let swept = Locked(Set<FileIdentity>())

  /// Creates the output folder when missing, opens it and removes stale temporaries from it.
  init(folder path: String) throws {
    if let problem = Self.problem(withFolder: path) { throw BatchError.outputFolder(path: path, message: problem) }
    do {
      folder = try Folder.open(path: path, creating: true)
    } catch {
      guard let failure = error as? Folder.Failure else {
        throw BatchError.outputFolder(path: path, message: "\(error)")
      }
      // The component at fault, when it is not the folder itself: `a/b: is not a folder`.
      let message = failure.name == path ? "\(failure.reason)" : "\(failure)"
      throw BatchError.outputFolder(path: path, message: message)
    }
    sweep(folder)
  }

  /// Why `path` cannot be the output folder, found before any folder is made: longer than a path may be (4,095
  /// bytes) or than a name (255), more than 64 components deep (as an output path may be), or with a component
  /// that exists and is not a folder. Nil when it can be made (or exists).
  package static func problem(withFolder path: String) -> String? {
    if path.isEmpty { return "names no folder" }
    let limit = Limits().maxOutputComponents
    let prefixes = Folder.prefixes(of: path)
    if prefixes.count > limit { return "has \(prefixes.count) components; at most \(limit)" }
    if path.utf8.count > PathRules.pathMax {
      return "is \(path.utf8.count) bytes long; a path may have at most \(PathRules.pathMax)"
    }
    if let long = PathRules.components(path).first(where: { $0.utf8.count > PathRules.nameMax }) {
      return "'\(long.prefix(40))...' is \(long.utf8.count) bytes long; a name may have at most \(PathRules.nameMax)"
    }
    for prefix in prefixes {
      let status: FileStatus
      do throws(Errno) {
        status = try FileStatus(path: prefix)
      } catch {
        guard error == .noSuchEntry else { return "\(prefix): \(Folder.Reason(error))" }
        // Missing, so made later; unless a symbolic link to nothing is in the way.
        return (try? FileStatus(path: prefix, followingLinks: false)) != nil
          ? "\(prefix): a symbolic link to nothing" : nil
      }
      if status.kind != .folder { return "\(prefix): not a folder" }
    }
    return nil
  }

  /// Where a job's relative output goes: its folders opened (made when missing) inside the root without following
  /// any symbolic link, its name checked for length and against `inputs` (identities of files never replaced).
  func resolve(_ relative: String, job: String, inputs: Set<FileIdentity>) throws -> OutputTarget {
    func refuse(_ reason: String) -> BatchError { .unsafeOutput(job: job, path: relative, reason: reason) }
    if let refusal = PathRules.renderRefusal(ofOutput: relative) { throw refuse("\(refusal)") }
    let parts = PathRules.components(PathRules.normalize(relative))
    guard let name = parts.last else { throw refuse("\(PathRules.Refusal.notAFile)") }
    var current = folder
    for part in parts.dropLast() {
      do {
        current = try current.child(part, creating: true)
      } catch let failure as Folder.Failure {
        if failure.reason == .symbolicLink {
          throw refuse("'\(part)' is a symbolic link, which could lead outside --out; outputs never go through one")
        }
        throw refuse("'\(part)': \(failure.reason)")
      }
    }
    sweep(current)
    if let existing = FileIdentity.entry(in: current, name: name), inputs.contains(existing) {
      throw refuse("would overwrite an input file")
    }
    return OutputTarget(folder: current, name: name, display: relative)
  }

  /// Removes the stale temporaries of `folder` the first time this run opens it.
  private func sweep(_ folder: Folder) {
    guard let identity = folder.identity, swept.withLock({ $0.insert(identity).inserted }) else { return }
    TemporaryFiles.removeStale(in: folder)
  }

  /// The path with every symlink resolved (the path itself when it does not exist).
  static func realPath(_ path: String) -> String {
    (try? FileSystem.realPath(path)) ?? path
  }
}
