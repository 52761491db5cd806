import Foundation
import StampFiles
import StampManifest
import StampSystem

/// What a job's outputs were made from, kept beside them so that `--resume` skips a job only when nothing that
/// shaped its outputs has changed: the stampcam version, the input policy, the job as replayed, its input files, and
/// the outputs themselves (each part a digest, so the record stays small however long the job's touch trace is).
struct ResumeFingerprint: Sendable, Equatable {
  /// stampcam's version.
  var version: String
  /// What decides which inputs are decoded and how (`--fail-on`, `--max-pixels`, the loaders allowed): the same
  /// job under another policy may render a damaged photo, or fail.
  var policy: String
  /// The job entry (its place in the manifest left out) with its outputs. The scene its gestures replay to follows
  /// from these, the input files and the version, so it is not replayed again here (the render replays it).
  var job: String
  /// Each input file's path, inode, size, and modification and change times (to the nanosecond), photo and stamps.
  var inputs: String
  /// Each output's path, size and modification time, once written; empty before.
  var outputs = ""

  /// The fingerprint of `job` as `renderer` would render it now, or nil when an input cannot be read (the render
  /// then fails and says why).
  init?(job: JobEntry, renderer: JobRenderer, version: String = StampcamVersion.current) {
    var entry = job
    (entry.index, entry.ordinal, entry.line) = (0, nil, 0)  // moving a job within its manifest changes nothing it makes
    // The same files named from another folder (a manifest run from elsewhere) are the same inputs.
    entry.base = OutputPaths.realPath(job.base)
    for i in entry.stamps.indices { entry.stamps[i].image = OutputPaths.realPath(job.stamps[i].image) }
    var digest = Digest()
    CanonicalText.add(entry, to: &digest)
    CanonicalText.add(renderer.outputs(of: job).map(\.path), to: &digest)
    guard let inputs = Self.inputs(of: job) else { return nil }
    let inputPolicy = renderer.renderer.inputs
    self.version = version
    self.policy =
      "fail-on=\(inputPolicy.failOn.rawValue) max-pixels=\(renderer.renderer.maxPixels) "
      + "untrusted-loaders=\(inputPolicy.untrustedLoaders)"
    self.job = digest.hex
    self.inputs = inputs
  }

  /// The digest of the job's input files as they are now (see `inputs`), or nil when one cannot be read.
  static func inputs(of job: JobEntry) -> String? {
    var seen = Set<[UInt8]>()
    let files = ([job.base] + job.stamps.map(\.image)).map(OutputPaths.realPath).filter {
      seen.insert(Array($0.utf8)).inserted
    }
    var digest = Digest()
    for path in files {
      // The device is left out: one share mounted on two machines has two device numbers, one inode.
      guard let file = FileVersion(path: path) else { return nil }
      let parts = [path, "\(file.identity.inode)", "\(file.size)", "\(file.modified)", "\(file.changed)"]
      CanonicalText.add(parts, to: &digest)
    }
    return digest.hex
  }

  /// The record's first line: the format.
  static let format = "stampcam resume record 2"

  /// The record's text: a line naming the format, one line per part, then a digest of all that (a record edited by
  /// hand, or torn, fails it).
  var text: String {
    let body =
      "\(Self.format)\nversion \(version)\npolicy \(policy)\njob \(job)\ninputs \(inputs)\noutputs \(outputs)\n"
    return body + "check \(Digest(body).hex)\n"
  }

  /// A record as read from `.stampcam`.
  enum Reading: Equatable {
    /// No record.
    case absent
    /// A record of another format (another stampcam's).
    case otherFormat
    /// A file that is not a whole record, or whose check fails; why.
    case damaged(String)
    /// A sound record.
    case record(ResumeFingerprint)

    /// Reads a record's bytes (nil: no file).
    init(_ bytes: [UInt8]?) {
      guard let bytes else {
        self = .absent
        return
      }
      let text = String(decoding: bytes, as: UTF8.self)
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      if lines[0] != ResumeFingerprint.format {
        self = lines[0].hasPrefix("stampcam resume record ") ? .otherFormat : .damaged("not a resume record")
        return
      }
      let keys = ["version", "policy", "job", "inputs", "outputs", "check"]
      guard lines.count == keys.count + 2, lines[keys.count + 1].isEmpty,
        zip(lines[1...keys.count], keys).allSatisfy({ $0.hasPrefix($1 + " ") })
      else {
        self = .damaged("not a whole resume record")
        return
      }
      let value = { (k: Int) in String(lines[k + 1].dropFirst(keys[k].count + 1)) }
      var record = ResumeFingerprint(version: value(0), policy: value(1), job: value(2), inputs: value(3))
      record.outputs = value(4)
      guard Array(record.text.utf8) == bytes else {
        self = .damaged("its check digest does not match its contents: edited since it was written")
        return
      }
      self = .record(record)
    }
  }

  private init(version: String, policy: String, job: String, inputs: String) {
    (self.version, self.policy, self.job, self.inputs) = (version, policy, job, inputs)
  }
}
