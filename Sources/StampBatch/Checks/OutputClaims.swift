import Foundation
import StampFiles
import StampManifest
import StampRender
import StampSystem

/// Which real file each input and output of a batch is, so that no output, overlay, view or report is an input of
/// any job, the manifest, or another job's output. Files are compared as files, not names: an existing one by
/// device and inode (hard links, symbolic links, `..` all lead to the same), one not yet written by the real path of
/// its deepest existing folder plus the rest of its name. Fed one job at a time, so a JSON Lines manifest can be
/// checked while it streams; memory holds one small entry per distinct file.
package final class OutputClaims {
  /// A file as compared here.
  enum Identity: Hashable {
    case file(FileIdentity)
    /// The real path's bytes (names compared as the file system compares them).
    case path(PathKey)
  }

  /// Who claimed a file first: a field of a job, or the manifest or report themselves.
  struct Claim {
    enum Role: UInt8 { case input, output, manifest, report }
    let role: Role
    /// The job's index and id; -1 for the manifest and the report.
    let index: Int
    let id: String
    /// The job's field holding the file (compact: 10,000s of claims stay small).
    let field: Field

    enum Field: Equatable {
      case none, base, stamp(Int), output, viewOutput, overlay

      init(_ kind: JobOutput.Kind) {
        switch kind {
        case .output: self = .output
        case .viewOutput: self = .viewOutput
        case .overlay: self = .overlay
        }
      }

      var path: String {
        switch self {
        case .none: return ""
        case .base: return "base"
        case .stamp(let k): return "stamps[\(k)].image"
        case .output: return "output"
        case .viewOutput: return "viewOutput"
        case .overlay: return "overlay"
        }
      }
    }

    var phrase: String {
      switch role {
      case .manifest: return "the manifest"
      case .report: return "the --report file"
      case .input, .output: return "jobs[\(index)].\(field.path) of job \"\(id)\""
      }
    }
  }

  private let out: String
  private let file: String
  private var claims: [Identity: Claim] = [:]
  /// The existing files no output may replace: every input, the manifest, the report (see `BatchOptions.protected`).
  package private(set) var protected: Set<FileIdentity> = []
  /// The report's components under `--out` when it lies there (see `ReportPlace`), for the outputs it must not meet.
  private var report: ReportPlace?

  /// Claims for a batch writing under `out` from `manifest` (named `file` in diagnostics), reporting to `report`
  /// (nil or `-`: none). Fails when the report is the manifest, or lies in `--out/.stampcam` (see `ReportPlace`).
  package init(out: String, manifest: String, file: String, report: String?) throws(ManifestError) {
    self.out = out
    self.file = file
    _ = claim(manifest, Claim(role: .manifest, index: -1, id: "", field: .none))
    guard let report, report != "-" else { return }
    if let taken = claim(report, Claim(role: .report, index: -1, id: "", field: .none)) {
      throw ManifestError(file: file, message: "\(report): --report would overwrite \(taken.phrase)")
    }
    self.report = try ReportPlace(report, out: out, file: file)
  }

  /// Claims the files of `job` (its overlay too when the job or `overlayForEveryJob` asks for it) and returns a
  /// diagnostic for each that another claim already holds in a way that would overwrite it.
  package func add(_ job: JobEntry, overlayForEveryJob: Bool) -> [Diagnostic] {
    var files: [(String, Claim)] = [(job.base, Claim(role: .input, index: job.index, id: job.id, field: .base))]
    for (k, stamp) in job.stamps.enumerated() {
      files.append((stamp.image, Claim(role: .input, index: job.index, id: job.id, field: .stamp(k))))
    }
    let outputs = job.outputs(overlayForEveryJob: overlayForEveryJob).map { (Claim.Field($0.kind), $0.path) }
    for (field, output) in outputs where !PathRules.isAbsolute(output) {
      files.append((out + "/" + output, Claim(role: .output, index: job.index, id: job.id, field: field)))
    }
    let around = outputs.compactMap { report?.clash(with: $1, field: $0.path, of: job, file: file) }
    return around
      + files.compactMap { path, claim in
        guard let taken = self.claim(path, claim) else { return nil }
        let (writer, other) = claim.role == .output ? (claim, taken) : (taken, claim)
        return Diagnostic(
          file: file, line: job.line, path: "jobs[\(job.index)].\(claim.field.path)",
          message: "\(writer.phrase) would overwrite \(other.phrase): they are the same file")
      }
  }

  /// Records `claim` on the file at `path`; returns the earlier claim when the two conflict (anything but two reads).
  private func claim(_ path: String, _ claim: Claim) -> Claim? {
    let identity = Self.identity(of: path)
    if case .file(let id) = identity, claim.role != .output { protected.insert(id) }
    guard let taken = claims[identity] else {
      claims[identity] = claim
      return nil
    }
    if taken.role == .input, claim.role == .input { return nil }
    if taken.role == .manifest, claim.role == .input { return nil }
    if taken.role == .input, claim.role == .manifest { return nil }
    return taken
  }

  /// The file `path` is: its device and inode when it exists, else the real path of its deepest existing folder
  /// followed by the rest of its components (`.` and `..` in them applied by name).
  static func identity(of path: String) -> Identity {
    if let id = FileIdentity(path: path) { return .file(id) }
    return .path(PathKey(resolved(path)))
  }

  /// The absolute path a file opened at `path` would have: its real path when it exists; else, when it is a
  /// symbolic link to nothing, where the link points (a file created through it lands there); else the real path
  /// of its deepest existing folder followed by the rest of its components (`.` and `..` applied by name).
  static func resolved(_ path: String, links: Int = 0) -> String {
    if let real = try? FileSystem.realPath(path) { return real }
    if links < 40, let target = FileSystem.linkText(path), !target.isEmpty {
      let folder = PathRules.folder(of: path)
      return resolved(PathRules.isAbsolute(target) || folder.isEmpty ? target : folder + "/" + target, links: links + 1)
    }
    let absolute = PathRules.isAbsolute(path) ? path : FileManager.default.currentDirectoryPath + "/" + path
    var head = PathRules.components(absolute)
    var rest: [String] = []
    while let last = head.popLast() {
      rest.insert(last, at: 0)
      let folder = "/" + head.joined(separator: "/")
      guard let real = try? FileSystem.realPath(folder) else { continue }
      var parts = PathRules.components(real)
      for part in rest where !part.utf8.elementsEqual(".".utf8) {
        if part.utf8.elementsEqual("..".utf8) { _ = parts.popLast() } else { parts.append(part) }
      }
      return "/" + parts.joined(separator: "/")
    }
    return absolute
  }
}
