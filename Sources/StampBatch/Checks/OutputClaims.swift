import Foundation
import StampFiles
import StampManifest
import StampRender
import StampSystem

/// Which real file each input and output of a batch is, so that no output, overlay, view or report is an input of
/// any job, the manifest, or another job's output. Files are compared as files, not names: an existing one by
/// device and inode (hard links, symbolic links, `..` all lead to the same), one not yet written by the real path of
/// its deepest existing folder plus the rest of its name. Fed one job at a time, so a JSON Lines manifest (or a job
/// over a million photos) can be checked while it streams; memory holds one small entry per distinct file: a 64-bit
/// hash of its identity and who claimed it by place, never a path or an id. The earlier claim's job is named again,
/// when it meets a later one, by `naming` (which makes the manifest's jobs again up to it, a few times a pass at
/// most), and only when that job claims the very file: otherwise (only the hashes met, or its folder changed since)
/// it is told by its place.
package final class OutputClaims {
  /// A file as compared here.
  enum Identity: Hashable {
    case file(FileIdentity)
    /// The real path's bytes (names compared as the file system compares them).
    case path(PathKey)
  }

  /// Who claimed a file first: a field of a job, or the manifest or report themselves.
  struct Claim {
    enum Role: UInt8 { case input, output, manifest, report, events }
    let role: Role
    /// The job's index in the manifest; -1 for the manifest and the report.
    let index: Int
    /// The job's place among the jobs the manifest makes (`JobEntry.position`), what names it again.
    let position: Int
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

    /// The claim in messages, its job named `id` (nil: told by its place, its index unknown when held).
    func phrase(id: String?) -> String {
      switch role {
      case .manifest: return "the manifest"
      case .report: return "the --report file"
      case .events: return "the --events file"
      case .input, .output:
        guard let id, index >= 0 else { return "\(field.path) of the job made at place \(position)" }
        return "jobs[\(index)].\(field.path) of job \"\(id)\""
      }
    }

    /// The claim as held, in 64 bits: its role (3 bits), its field (15: none, base, output, viewOutput, overlay,
    /// then stamps, the 32,763rd and later told as one: a job has at most 1,000) and its job's place (46). Its index is not held: a job
    /// named again has it.
    var packed: UInt64 {
      let code: UInt64
      switch field {
      case .none: code = 0
      case .base: code = 1
      case .output: code = 2
      case .viewOutput: code = 3
      case .overlay: code = 4
      case .stamp(let k): code = 5 + UInt64(min(max(k, 0), 32_762))
      }
      let place = UInt64(max(position, 0)) & (1 << 46 - 1)
      return UInt64(role.rawValue) | code << 3 | place << 18
    }

    /// A claim held as `packed`, its index unknown (-1).
    init(packed: UInt64) {
      role = Role(rawValue: UInt8(packed & 7)) ?? .input
      switch Int(packed >> 3 & 0x7FFF) {
      case 0: field = .none
      case 1: field = .base
      case 2: field = .output
      case 3: field = .viewOutput
      case 4: field = .overlay
      case let code: field = .stamp(code - 5)
      }
      index = -1
      position = Int(packed >> 18)
    }

    init(role: Role, index: Int, position: Int, field: Field) {
      self.role = role
      self.index = index
      self.position = position
      self.field = field
    }
  }

  private let out: String
  private let file: String
  /// Each file's claim (`Claim.packed`), by a hash of its identity: 16 bytes a file.
  private var claims: [Int: UInt64] = [:]
  /// The job the manifest makes at a place, made again to name it (nil: jobs are told by place).
  private let naming: ((Int) -> JobEntry?)?
  /// How many times `naming` ran in this pass.
  private var named = 0
  /// At most this many jobs named again in one pass: each makes the manifest's jobs again up to it.
  static let maxNamed = 16
  /// The existing files no output may replace: every input, the manifest, the report (see `BatchOptions.protected`).
  package private(set) var protected: Set<FileIdentity> = []
  /// The report's components under `--out` when it lies there (see `ReportPlace`), for the outputs it must not meet.
  private var report: ReportPlace?

  /// Claims for a batch writing under `out` from `manifest` (named `file` in diagnostics), reporting to `report`
  /// (nil or `-`: none). Fails when the report is the manifest, or lies in `--out/.stampcam` (see `ReportPlace`).
  /// `naming` gives the job the manifest makes at a place, to name an earlier claim's job in a diagnostic. The
  /// `--events` file (nil or `-`: none) is claimed as the report is: no input, manifest or output may be it.
  package init(
    out: String, manifest: String?, file: String, report: String?, events: String? = nil,
    naming: ((Int) -> JobEntry?)? = nil
  ) throws(ManifestError) {
    self.out = out
    self.file = file
    self.naming = naming
    // A manifest piped on standard input (nil) is no file an output could overwrite.
    if let manifest { _ = claim(manifest, Claim(role: .manifest, index: -1, position: -1, field: .none)) }
    if let events, events != "-" {
      if let taken = claim(events, Claim(role: .events, index: -1, position: -1, field: .none)) {
        throw ManifestError(file: file, message: "\(events): --events would overwrite \(taken.claim.phrase(id: nil))")
      }
    }
    guard let report, report != "-" else { return }
    if let taken = claim(report, Claim(role: .report, index: -1, position: -1, field: .none)) {
      throw ManifestError(file: file, message: "\(report): --report would overwrite \(taken.claim.phrase(id: nil))")
    }
    self.report = try ReportPlace(report, out: out, file: file)
  }

  /// Claims the files of `job` (its overlay too when the job or `overlayForEveryJob` asks for it) and returns a
  /// diagnostic for each that another claim already holds in a way that would overwrite it.
  package func add(_ job: JobEntry, overlayForEveryJob: Bool) -> [Diagnostic] {
    let files = Self.files(of: job, out: out, overlayForEveryJob: overlayForEveryJob)
    let around = job.outputs(overlayForEveryJob: overlayForEveryJob).compactMap {
      report?.clash(with: $0.path, field: Claim.Field($0.kind).path, of: job, file: file)
    }
    return around
      + files.compactMap { path, claim in
        guard let (taken, identity) = self.claim(path, claim) else { return nil }
        let ofAJob = taken.role == .input || taken.role == .output
        let earlier = !ofAJob ? nil : taken.position == job.position ? job : again(taken)
        let mine = claim.phrase(id: job.id)
        // The earlier job's id and index, when it is the one that claimed this very file.
        let found = earlier.flatMap { claims($0, taken, identity, overlayForEveryJob) ? $0 : nil }
        let theirs = Claim(role: taken.role, index: found?.index ?? -1, position: taken.position, field: taken.field)
          .phrase(id: found?.id)
        let (writer, other) = claim.role == .output ? (mine, theirs) : (theirs, mine)
        return Diagnostic(
          file: file, line: job.line, path: "jobs[\(job.index)].\(claim.field.path)",
          message: "\(writer) would overwrite \(other): they are the same file")
      }
  }

  /// The files `job` claims, each with its claim: its photo and stamps, and its outputs under `out`.
  private static func files(of job: JobEntry, out: String, overlayForEveryJob: Bool) -> [(String, Claim)] {
    let claim = { (role: Claim.Role, field: Claim.Field) in
      Claim(role: role, index: job.index, position: job.position, field: field)
    }
    var files: [(String, Claim)] = [(job.base, claim(.input, .base))]
    for (k, stamp) in job.stamps.enumerated() { files.append((stamp.image, claim(.input, .stamp(k)))) }
    for written in job.outputs(overlayForEveryJob: overlayForEveryJob) where !PathRules.isAbsolute(written.path) {
      files.append((out + "/" + written.path, claim(.output, Claim.Field(written.kind))))
    }
    return files
  }

  /// The earlier claim's job made again (a few times a pass); nil when it cannot be.
  private func again(_ taken: Claim) -> JobEntry? {
    guard named < Self.maxNamed, let naming else { return nil }
    named += 1
    return naming(taken.position)
  }

  /// Whether `job`'s field `taken` names the file `identity`.
  private func claims(_ job: JobEntry, _ taken: Claim, _ identity: Identity, _ overlayForEveryJob: Bool) -> Bool {
    let files = Self.files(of: job, out: out, overlayForEveryJob: overlayForEveryJob)
    return files.contains { $0.1.field == taken.field && Self.identity(of: $0.0) == identity }
  }

  /// Records `claim` on the file at `path`; returns the earlier claim, with the file's identity, when the two
  /// conflict (anything but two reads).
  private func claim(_ path: String, _ claim: Claim) -> (claim: Claim, identity: Identity)? {
    let identity = Self.identity(of: path)
    if case .file(let id) = identity, claim.role != .output { protected.insert(id) }
    let key = identity.hashValue
    guard let held = claims[key] else {
      claims[key] = claim.packed
      return nil
    }
    let taken = Claim(packed: held)
    if taken.role == .input, claim.role == .input { return nil }
    if taken.role == .input, claim.role == .manifest { return nil }
    if taken.role == .manifest, claim.role == .input { return nil }
    return (taken, identity)
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
