import Foundation
import StampCore
import StampFiles
import StampManifest
import StampSystem

/// A manifest piped on standard input (`render -`, `render /dev/stdin`), read once to its end into a private file
/// (mode 0600) whose name is removed the moment it is made: every pass (the check, then the render) reads that one
/// file from its first byte, and nothing is left behind however the run ends (an error, Ctrl-C, a kill). Diagnostics
/// name it `-`; its relative paths start from the current folder.
final class PipedManifest: Sendable {
  /// How errors name a piped manifest.
  static let name = "-"

  /// JSON Lines or one JSON document, told from the first non-blank line (see `ManifestFormat(firstLine:)`).
  let format: ManifestFormat
  /// A JSON document's bytes (decoded whole, as a named one is); empty for JSON Lines.
  let document: [UInt8]
  /// The spool, open (owned; closed with this).
  private let descriptor: FileDescriptor

  /// Whether `path` names standard input: `-`, or the names Linux gives the same descriptor.
  static func isStandardInput(_ path: String) -> Bool {
    ["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"].contains(path)
  }

  /// Reads standard input to its end into a spool made in `folder` (held open) or, when nil, in `$TMPDIR` (or
  /// `/tmp`). Bounded by the manifest's own limits: a JSON document at most `limits.maxBytes` (64 MiB), a line of
  /// JSON Lines at most the same; the stream as a whole by the disk (a full one fails with its reason).
  init(spoolingIn folder: Folder?, limits: Limits = Limits()) throws(ManifestError) {
    let name = Self.name
    func fail(_ message: String, line: Int? = nil) -> ManifestError {
      ManifestError(file: name, line: line, message: message)
    }
    let spool: FileDescriptor
    do throws(Errno) {
      spool = try Self.makeSpool(in: folder)
    } catch {
      throw fail("cannot make a file to read standard input into (\(error))")
    }
    let input: FileDescriptor
    do throws(Errno) {
      input = try FileDescriptor.duplicating(STDIN_FILENO)
    } catch {
      throw fail("cannot read standard input (\(error))")
    }
    // Ctrl-C, SIGTERM and SIGHUP end the wait for input as they would end any reader of a pipe, even when the
    // process started with them blocked (a parent's mask is inherited); the mask is put back once the input ends.
    let mask = systemUnblockSignals([SIGINT, SIGTERM, SIGHUP])
    defer { systemRestoreSignalMask(mask) }
    var spooled = Spooling(limit: limits.maxBytes)
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n: Int
      do throws(Errno) {
        n = try input.read(into: &buffer, from: 0)
      } catch {
        throw fail("cannot read standard input (\(error))")
      }
      if n == 0 { break }
      let chunk = buffer[0..<n]
      if let problem = spooled.add(chunk, limits: limits) { throw fail(problem.message, line: problem.line) }
      do throws(Errno) {
        try spool.writeAll(chunk)
      } catch {
        throw fail("cannot keep standard input in a file (\(error))")
      }
    }
    format = spooled.format ?? ManifestFormat(firstLine: spooled.firstLine, limits: limits)
    if format == .json {
      let whole: [UInt8]
      do throws(Errno) {
        try spool.seek(to: 0)
        whole = try spool.readToEnd()
      } catch {
        throw fail("cannot read back the file standard input was kept in (\(error))")
      }
      if whole.count < spooled.total {
        throw fail("cannot read back the file standard input was kept in (it is shorter)")
      }
      document = whole
    } else {
      document = []
    }
    descriptor = spool
  }

  /// The jobs of a JSON document (every problem thrown), each pass decoding nothing again.
  func jobs(_ decoder: ManifestDecoder) throws(ManifestError) -> [JobEntry] {
    try decoder.decode(document, file: Self.name, folder: "").jobs
  }

  /// Every job, in either format, decoded at once (for `--script` and `explain`, which hold the jobs anyway); every
  /// problem thrown.
  func allJobs(_ decoder: ManifestDecoder) throws(ManifestError) -> [JobEntry] {
    guard format == .jsonLines else { return try jobs(decoder) }
    var entries: [JobEntry] = []
    var diagnostics: [Diagnostic] = []
    for record in lines(decoder) {
      switch record.result {
      case .success(let job): entries.append(job)
      case .failure(let error): diagnostics += error.diagnostics
      }
    }
    if !diagnostics.isEmpty { throw ManifestError(diagnostics) }
    return entries
  }

  /// Why a job of a piped manifest cannot read its photos' list from standard input: the manifest took it.
  static func listRefusal(_ job: JobEntry) -> PhotoFailure? {
    guard job.photos?.source == .list("-") else { return nil }
    return PhotoFailure(
      "standard input: already read as the manifest (-); give the photos' list as a file, or the manifest as one")
  }

  /// A reader of the JSON Lines, each pass reading the spool from its first line.
  func lines(_ decoder: ManifestDecoder) -> JSONLinesReader {
    var reader = JSONLinesReader(spooled: descriptor, file: Self.name, folder: "", limits: decoder.limits)
    reader.overlayForEveryJob = decoder.overlayForEveryJob
    return reader
  }

  /// What was read so far: the bytes, the current line, and the format once the first non-blank line is whole.
  private struct Spooling {
    let limit: Int
    var total = 0
    var line = 1
    var lineBytes = 0
    var firstLine: [UInt8] = []
    var format: ManifestFormat?

    init(limit: Int) { self.limit = limit }

    /// Counts `chunk`; a problem (and the line it is on) when it takes the stream past a limit.
    mutating func add(_ chunk: ArraySlice<UInt8>, limits: Limits) -> (message: String, line: Int?)? {
      var rest = chunk
      // Byte by byte only until the format is known; then a line at a time (the standard library's search).
      while format == nil, let byte = rest.first {
        rest = rest.dropFirst()
        total += 1
        if byte == UInt8(ascii: "\n") {
          let blank = firstLine.allSatisfy { [0x20, 0x09, 0x0D].contains($0) }
          if !blank { format = ManifestFormat(firstLine: firstLine, limits: limits) }
          firstLine = []
          line += 1
          lineBytes = 0
          continue
        }
        lineBytes += 1
        // A line too long for JSON Lines is too long for a document's first line too.
        if lineBytes > limit { return ("line is longer than the limit of \(limit) bytes", line) }
        firstLine.append(byte)
      }
      if format == .json {
        total += rest.count
        return total > limit ? ("a JSON manifest is longer than the limit of \(limit) bytes", nil) : nil
      }
      while !rest.isEmpty {
        let newline = rest.firstIndex(of: UInt8(ascii: "\n"))
        let length = (newline ?? rest.endIndex) - rest.startIndex
        lineBytes += length
        total += length
        if lineBytes > limit { return ("line is longer than the limit of \(limit) bytes", line) }
        guard let newline else { break }
        total += 1
        line += 1
        lineBytes = 0
        rest = rest[(newline + 1)...]
      }
      return nil
    }
  }

  /// A new file of this user's alone (mode 0600) in `folder` (nil: `$TMPDIR`, else /tmp), its name removed at once.
  private static func makeSpool(in folder: Folder?) throws(Errno) -> FileDescriptor {
    guard let folder else {
      let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
      return try FileSystem.unnamedFile(in: temporary, prefix: ".stampcam-stdin-")
    }
    for _ in 0..<16 {
      let name = ".stdin-\(FileSystem.processID)-\(UInt64.random(in: 0...UInt64.max)).manifest"
      let file: FileDescriptor
      do throws(Errno) {
        file = try folder.descriptor.open(entry: name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o600)
      } catch  where error == .exists {
        continue
      }
      try? folder.descriptor.remove(entry: name)
      return file
    }
    throw Errno.exists
  }
}
