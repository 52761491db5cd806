import Foundation
import StampFiles
import StampManifest
import StampSystem

/// The one file `stampcam record` writes: the manifest named on the command line. A save reads it again, changes
/// only the recorded job's bytes (its `gestures`; a new job is added after the last), checks that the result still
/// decodes to the same jobs with the recorded one's script, and replaces the file atomically (`AtomicFile`).
package struct ManifestStore: Sendable {
  /// The manifest's path as given.
  package let path: String
  package let format: ManifestFormat
  /// Whether the job is in the file yet (a new job is added by its first save).
  package private(set) var holdsJob: Bool
  /// How a new job's files are named in the manifest, by their absolute paths (relative to the manifest's folder
  /// when they lie in it).
  package var spelling: [String: String] = [:]

  package init(path: String, holdsJob: Bool) {
    self.path = path
    self.format = ManifestFormat(path: path)
    self.holdsJob = holdsJob
  }

  /// Writes `job` (its gestures, or all of it when it is new) into the manifest.
  ///
  /// - Throws: `RecordError.save` naming the file when it cannot be read, changed or written; the file is then
  ///   as it was.
  package mutating func save(_ job: JobEntry) throws(RecordError) {
    let before: [UInt8]
    if FileManager.default.fileExists(atPath: path) {
      guard let data = FileManager.default.contents(atPath: path) else {
        throw .save("\(path): cannot read the manifest again to save into it")
      }
      before = Array(data)
    } else {
      before = Array(ManifestWriter().json(Manifest(jobs: [])).utf8)
    }
    let after: [UInt8]
    do {
      after =
        holdsJob
        ? try ManifestSplice.replacingGestures(of: job.id, with: job.gestures, in: before, format: format, file: path)
        : try ManifestSplice.appending(spelled(job), to: before, format: format, file: path)
    } catch {
      throw .save("\(path): \(error)")
    }
    try check(after, holds: job)
    do {
      // The file it replaces: its permissions, owner and group are the new file's, as an editor keeps them.
      let old = try? FileStatus(path: path)
      var target = try OutputTarget(path: path)
      if let old { target.modeLimit = old.permissions & 0o777 }
      try AtomicFile.stage(target, registry: TemporaryFiles()) { fd in
        try fd.writeAll(after[...])
        if let old { try Self.keep(old, on: fd, display: path) }
      }.commit()
    } catch let error as RecordError {
      throw error
    } catch {
      throw .save("\(path): \(error)")
    }
    holdsJob = true
  }

  /// Gives the new file `old`'s owner and group where this process may (root any; a user only a group of theirs),
  /// then `old`'s permissions; when the group cannot be kept, the group's permissions are dropped, so that the
  /// file is never open to more people than before.
  static func keep(_ old: FileStatus, on fd: borrowing FileDescriptor, display: String) throws(RecordError) {
    var mode = old.permissions & 0o777
    do throws(Errno) {
      let now = try fd.status()
      if now.owner != old.owner || now.group != old.group {
        do throws(Errno) {
          try fd.setOwner(old.owner, group: old.group)
        } catch {
          if now.group != old.group {
            do throws(Errno) { try fd.setOwner(uid_t.max, group: old.group) } catch { mode &= ~0o070 }
          }
        }
      }
      try fd.setPermissions(mode)
    } catch {
      throw .save("\(display): \(error)")
    }
  }

  /// Removes the temporary files a save killed midway (kill -9) left beside the manifest at `path`: those named for
  /// it by a process that is gone. Returns their names.
  @discardableResult
  package static func removeStaleTemporaries(of path: String) -> [String] {
    guard let target = try? OutputTarget(path: path) else { return [] }
    return TemporaryFiles.removeStale(in: target.folder, madeFor: target.name)
  }

  /// `job` with its files named as the manifest names them.
  private func spelled(_ job: JobEntry) -> JobEntry {
    var job = job
    job.base = spelling[job.base] ?? job.base
    for i in job.stamps.indices { job.stamps[i].image = spelling[job.stamps[i].image] ?? job.stamps[i].image }
    return job
  }

  /// Refuses to write text that does not decode, or whose job `job.id` does not have `job`'s script.
  private func check(_ bytes: [UInt8], holds job: JobEntry) throws(RecordError) {
    let jobs: [JobEntry]
    do {
      jobs = try ManifestStore.decode(bytes, format: format, path: path)
    } catch {
      throw .save("\(path): the saved manifest would not decode, so it was not written: \(error)")
    }
    guard let saved = jobs.first(where: { $0.id == job.id }), saved.gestures == job.gestures else {
      throw .save("\(path): the saved job would not hold the recorded gestures, so it was not written")
    }
  }

  /// The jobs of a manifest's bytes, relative paths read against the manifest's folder. JSON Lines are read as
  /// the JSON manifest they amount to: the header's defaults, and every job line in the jobs list.
  static func decode(_ bytes: [UInt8], format: ManifestFormat, path: String) throws -> [JobEntry] {
    let folder = (path as NSString).deletingLastPathComponent
    guard format == .jsonLines else {
      return try ManifestDecoder().decode(bytes, file: path, folder: folder).jobs
    }
    let blank: Set<UInt8> = [0x20, 0x09, 0x0D]
    var lines = bytes.split(separator: UInt8(ascii: "\n")).filter { !$0.allSatisfy(blank.contains) }.map(Array.init)
    var defaults: [UInt8] = Array("{}".utf8)
    let parser = JSONParser(duplicateKeys: .keep)
    if let first = lines.first, let header = try? parser.parse(first), header["base"] == nil,
      header["version"] != nil
    {
      if let value = header["defaults"] { defaults = Array(first[try parser.span(of: value, in: first)]) }
      lines.removeFirst()
    }
    let document =
      Array("{\"version\": 1, \"defaults\": ".utf8) + defaults + Array(", \"jobs\": [\n".utf8)
      + Array(lines.joined(separator: Array(",\n".utf8))) + Array("]}".utf8)
    return try ManifestDecoder().decode(document, file: path, folder: folder).jobs
  }
}
