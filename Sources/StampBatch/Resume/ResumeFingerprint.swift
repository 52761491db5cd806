import Foundation
import StampFiles
import StampManifest

/// What a job's outputs were made from, kept beside them so that `--resume` skips a job only when nothing that
/// shaped its outputs has changed: the stampcam version, the job as replayed, its input files, and the outputs
/// themselves (each part a digest, so the record stays small however long the job's touch trace is).
struct ResumeFingerprint: Sendable, Equatable {
  /// stampcam's version.
  var version: String
  /// The job entry (its place in the manifest left out) with its outputs. The scene its gestures replay to follows
  /// from these, the input files and the version, so it is not replayed again here (the render replays it).
  var job: String
  /// Each input file's path, size and modification time (to the nanosecond).
  var inputs: String
  /// Each output's path, size and modification time, once written; empty before.
  var outputs = ""

  /// The fingerprint of `job` as `renderer` would render it now, or nil when an input cannot be read (the render
  /// then fails and says why).
  init?(job: JobEntry, renderer: JobRenderer, version: String = StampcamVersion.current) {
    var entry = job
    (entry.index, entry.line) = (0, 0)  // moving a job within its manifest changes nothing it makes
    // The same files named from another folder (a manifest run from elsewhere) are the same inputs.
    entry.base = OutputPaths.realPath(job.base)
    for i in entry.stamps.indices { entry.stamps[i].image = OutputPaths.realPath(job.stamps[i].image) }
    var digest = Digest()
    CanonicalText.add(entry, to: &digest)
    CanonicalText.add(renderer.outputs(of: job), to: &digest)
    var seen = Set<PathKey>()
    let files = ([entry.base] + entry.stamps.map(\.image)).filter { seen.insert(PathKey($0)).inserted }
    guard let inputs = Self.digest(of: files) else { return nil }
    self.version = version
    self.job = digest.hex
    self.inputs = inputs
  }

  /// A digest of each file's path, size and modification time, or nil when one cannot be read.
  static func digest(of paths: [String]) -> String? {
    var digest = Digest()
    for path in paths {
      var info = stat()
      guard stat(path, &info) == 0 else { return nil }
      #if canImport(Darwin)
        let modified = info.st_mtimespec
      #else
        let modified = info.st_mtim
      #endif
      CanonicalText.add([path, "\(info.st_size)", "\(modified.tv_sec).\(modified.tv_nsec)"], to: &digest)
    }
    return digest.hex
  }

  /// The record's text: a line naming the format, then one line per part.
  var text: String {
    "stampcam resume record 1\nversion \(version)\njob \(job)\ninputs \(inputs)\noutputs \(outputs)\n"
  }

  /// Reads a record's text; nil when it is not one (a torn or foreign file counts as no record).
  init?(text: String) {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.count == 6, lines[0] == "stampcam resume record 1", lines[5].isEmpty else { return nil }
    var parts: [String: String] = [:]
    for (line, key) in zip(lines[1...4], ["version", "job", "inputs", "outputs"]) {
      guard line.hasPrefix(key + " ") else { return nil }
      parts[key] = String(line.dropFirst(key.count + 1))
    }
    guard let version = parts["version"], let job = parts["job"], let inputs = parts["inputs"],
      let outputs = parts["outputs"]
    else { return nil }
    (self.version, self.job, self.inputs, self.outputs) = (version, job, inputs, outputs)
  }
}
