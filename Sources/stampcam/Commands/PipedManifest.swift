import Foundation
import StampCore
import StampFiles
import StampManifest

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
  private let descriptor: Int32

  deinit { close(descriptor) }

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
    let (made, reason) = Self.makeSpool(in: folder?.descriptor)
    guard let fd = made else {
      throw fail("cannot make a file to read standard input into (\(reason ?? "unknown"))")
    }
    // Ctrl-C, SIGTERM and SIGHUP end the wait for input as they would end any reader of a pipe, even when the
    // process started with them blocked (a parent's mask is inherited); the mask is put back once the input ends.
    var stops = sigset_t()
    var mask = sigset_t()
    sigemptyset(&stops)
    for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stops, number) }
    pthread_sigmask(SIG_UNBLOCK, &stops, &mask)
    defer { pthread_sigmask(SIG_SETMASK, &mask, nil) }
    var spooled = Spooling(limit: limits.maxBytes)
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
      if n < 0, errno == EINTR { continue }
      if n < 0 {
        close(fd)
        throw fail("cannot read standard input (\(Errno.text(errno)))")
      }
      if n == 0 { break }
      let chunk = buffer[0..<n]
      if let problem = spooled.add(chunk, limits: limits) {
        close(fd)
        throw fail(problem.message, line: problem.line)
      }
      if let code = Self.writeAll(chunk, to: fd) {
        close(fd)
        throw fail("cannot keep standard input in a file (\(Errno.text(code)))")
      }
    }
    format = spooled.format ?? ManifestFormat(firstLine: spooled.firstLine, limits: limits)
    if format == .json {
      var whole = [UInt8](repeating: 0, count: spooled.total)
      let got = whole.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
      guard got == spooled.total else {
        close(fd)
        throw fail("cannot read back the file standard input was kept in")
      }
      document = whole
    } else {
      document = []
    }
    descriptor = fd
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

  /// A new file of this user's alone in `folder` (nil: `$TMPDIR`), its name removed at once.
  private static func makeSpool(in folder: Int32?) -> (Int32?, String?) {
    let directory: Int32
    if let folder {
      directory = folder
    } else {
      let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
      directory = open(temporary, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      guard directory >= 0 else { return (nil, "\(temporary): \(Errno.text(errno))") }
    }
    defer { if folder == nil { close(directory) } }
    for _ in 0..<16 {
      let name = ".stdin-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).manifest"
      let fd = openat(directory, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
      if fd < 0, errno == EEXIST { continue }
      guard fd >= 0 else { return (nil, Errno.text(errno)) }
      unlinkat(directory, name, 0)
      return (fd, nil)
    }
    return (nil, "no free name")
  }

  /// Writes `bytes` whole to `fd`; the errno when it cannot.
  private static func writeAll(_ bytes: ArraySlice<UInt8>, to fd: Int32) -> Int32? {
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
      if n < 0, errno == EINTR { continue }
      guard n > 0 else { return n == 0 ? ENOSPC : errno }
      offset += n
    }
    return nil
  }
}
