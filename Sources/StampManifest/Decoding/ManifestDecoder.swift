import Foundation
import StampCore

/// Reads manifests, in either format, into jobs ready for the gesture engine; or reports every problem at once.
///
/// ```swift
/// let manifest = try ManifestDecoder().decode(contentsOf: url)   // throws ManifestError
/// let problems = ManifestDecoder().validate(contentsOf: url)     // [] when valid
/// ```
public struct ManifestDecoder: Sendable {
  /// Bounds on sizes and counts.
  public var limits: Limits
  /// Whether every job also writes its overlay picture, as `render --overlay` makes it (default false: only jobs
  /// with `"overlay": true`); the overlays' names are then checked against every other output.
  public var overlayForEveryJob = false

  /// Creates a decoder.
  public init(limits: Limits = Limits()) {
    self.limits = limits
  }

  /// Decodes a manifest file; `.jsonl` and `.ndjson` files are read as JSON Lines (to the end: use `jobs(inLinesAt:)`
  /// to stream them).
  ///
  /// - Throws: `ManifestError` with every problem found, including an unreadable file.
  public func decode(contentsOf url: URL) throws(ManifestError) -> Manifest {
    let (file, folder) = Self.names(of: url)
    if ManifestFormat(path: url.path) == .jsonLines {
      var entries: [JobEntry] = []
      var diagnostics: [Diagnostic] = []
      for record in jobs(inLinesAt: url) {
        switch record.result {
        case .success(let job): entries.append(job)
        case .failure(let error): diagnostics += error.diagnostics
        }
      }
      if !diagnostics.isEmpty { throw ManifestError(diagnostics) }
      return Manifest(jobs: entries)
    }
    let (input, reason) = ManifestFile.open(url.path)
    guard let input else { throw ManifestError(file: file, message: "cannot read the file (\(reason ?? "unknown"))") }
    switch input.readAll(limit: limits.maxBytes) {
    case .failure(let failure):
      throw ManifestError(
        file: file, message: failure.tooLarge ? failure.reason : "cannot read the file (\(failure.reason))")
    case .success(let bytes):
      return try decode(bytes, file: file, folder: folder)
    }
  }

  /// Decodes a JSON manifest (not JSON Lines) held in memory; `file` names it in diagnostics and relative input
  /// paths are resolved against `folder` (empty: the current folder).
  ///
  /// - Throws: `ManifestError` with every problem found.
  public func decode(_ bytes: [UInt8], file: String, folder: String = "") throws(ManifestError) -> Manifest {
    let parser = JSONParser(maxDepth: limits.maxDepth, maxBytes: limits.maxBytes, duplicateKeys: .keep)
    let root = try parser.parse(bytes, file: file)
    var walker = ManifestWalker(file: file, folder: folder, limits: limits)
    walker.overlayForEveryJob = overlayForEveryJob
    let jobs = walker.manifest(root)
    if !walker.diagnostics.isEmpty { throw ManifestError(walker.diagnostics) }
    return Manifest(jobs: jobs)
  }

  /// Every problem in a manifest file of either format, in file order; empty when it is valid. JSON Lines are
  /// streamed. A job over many photos is expanded (its folders walked or its list read; the photos are not opened)
  /// and each photo's job checked as a listed job is. No photo or stamp file is touched: checking that they exist is
  /// the batch layer's job. `check` adds what only the caller can judge (files on disk, writable formats) for each
  /// job that decodes; in a JSON manifest it runs only when the whole document decodes.
  public func validate(contentsOf url: URL, checking check: (JobEntry) -> [Diagnostic] = { _ in [] })
    -> [Diagnostic]
  {
    validateCounting(contentsOf: url, checking: check).diagnostics
  }

  /// `validate(contentsOf:checking:)`, and how many jobs the manifest makes (each photo of a job over many photos
  /// counted), with how many of them the jobs over many photos make.
  package func validateCounting(contentsOf url: URL, checking check: (JobEntry) -> [Diagnostic] = { _ in [] })
    -> (diagnostics: [Diagnostic], made: Int, photos: Int)
  {
    let file = Self.names(of: url).file
    let records: AnyIterator<Result<JobEntry, ManifestError>>
    if ManifestFormat(path: url.path) == .jsonLines {
      records = AnyIterator(jobs(inLinesAt: url).lazy.map(\.result).makeIterator())
    } else {
      do {
        records = AnyIterator(try decode(contentsOf: url).jobs.lazy.map { .success($0) }.makeIterator())
      } catch {
        return (error.diagnostics, 0, 0)
      }
    }
    var photos = 0
    let (diagnostics, made) = validate(records, file: file, sources: PhotoSet.photos(of:)) { job in
      if job.photo != nil { photos += 1 }
      return check(job)
    }
    return (diagnostics, made, photos)
  }

  /// Validates one pass of `lines` as `validate(contentsOf:checking:)` does a JSON Lines file.
  public func validate(_ lines: JSONLinesReader, checking check: (JobEntry) -> [Diagnostic] = { _ in [] })
    -> [Diagnostic]
  {
    let file = Self.names(of: lines.url).file
    var collector = DiagnosticCollector(limit: limits.maxDiagnostics, file: file)
    collector.add(expanding: lines.lazy.map(\.result).makeIterator(), file: file, decoder: self, checking: check)
    return collector.diagnostics
  }

  /// Every problem of the jobs `records` make (decoded jobs, of either format, in manifest order), and how many
  /// jobs they make; a job over many photos finds its photos with `sources` (render keeps the list it found).
  package func validate<Records: IteratorProtocol<Result<JobEntry, ManifestError>>>(
    _ records: Records, file: String, sources: @escaping PhotoSources, checking check: (JobEntry) -> [Diagnostic]
  ) -> (diagnostics: [Diagnostic], made: Int) {
    var collector = DiagnosticCollector(limit: limits.maxDiagnostics, file: file)
    let made = collector.add(expanding: records, file: file, decoder: self, sources: sources, checking: check)
    return (collector.diagnostics, made)
  }

  /// The jobs `records` make, checked (see `JobExpansion`): a job over many photos finds its photos with `sources`.
  package func expanding<Records: IteratorProtocol<Result<JobEntry, ManifestError>>>(
    _ records: Records, file: String,
    sources: @escaping JobExpansion<Records>.Sources = PhotoSet.photos(of:)
  ) -> JobExpansion<Records> {
    JobExpansion(
      records, file: file, checking: true, overlayForEveryJob: overlayForEveryJob,
      maxComponents: limits.maxOutputComponents, sources: sources)
  }

  /// Streams the jobs of a JSON Lines manifest, one line at a time.
  public func jobs(inLinesAt url: URL) -> JSONLinesReader {
    var reader = JSONLinesReader(url: url, limits: limits)
    reader.overlayForEveryJob = overlayForEveryJob
    return reader
  }

  /// Streams the jobs of a JSON Lines manifest opened now, once: every pass (validate it, then render it) reads that
  /// one file from its first line, never another renamed over its path, and a pass that finds the file changed (its
  /// size, modification or change time; a file renamed over it changes its change time) stops there with a failure
  /// naming the file.
  public func jobs(inLinesHeldOpenAt url: URL) -> JSONLinesReader {
    var reader = JSONLinesReader(holding: url, limits: limits)
    reader.overlayForEveryJob = overlayForEveryJob
    return reader
  }

  /// The name diagnostics give the file (as the user wrote it) and the folder its relative paths start from.
  static func names(of url: URL) -> (file: String, folder: String) {
    // URL(fileURLWithPath: "m.json") is relative to the current folder: keep the user's spelling then.
    let relativeToHere = url.baseURL.map { $0.path == FileManager.default.currentDirectoryPath } ?? true
    let file = relativeToHere ? url.relativePath : url.path
    return (file, PathRules.folder(of: file))
  }
}

/// Keeps the first `limit` diagnostics and counts the rest in a last one, so that a broken million-line manifest
/// does not fill memory with messages.
struct DiagnosticCollector {
  let limit: Int
  let file: String
  private(set) var kept: [Diagnostic] = []
  private var dropped = 0

  init(limit: Int, file: String) {
    self.limit = limit
    self.file = file
  }

  /// Adds the problems of every job `records` make, and what `check` finds in each that is made.
  /// Returns how many jobs they make.
  @discardableResult
  mutating func add<Records: IteratorProtocol<Result<JobEntry, ManifestError>>>(
    expanding records: Records, file: String, decoder: ManifestDecoder,
    sources: @escaping PhotoSources = PhotoSet.photos(of:), checking check: (JobEntry) -> [Diagnostic]
  ) -> Int {
    var made = decoder.expanding(records, file: file, sources: sources)
    while let record = made.next() {
      switch record {
      case .failure(let error): add(error.diagnostics)
      case .success(let job) where job.photo != nil:
        // A photo's job is named, as its template's diagnostics would not tell which photo they are about.
        add(check(job).map { $0.about("job \(JSONString.quoted(job.id))") })
      case .success(let job): add(check(job))
      }
    }
    return made.count
  }

  mutating func add(_ diagnostics: [Diagnostic]) {
    let room = max(limit - kept.count, 0)
    kept += diagnostics.prefix(room)
    dropped += max(diagnostics.count - room, 0)
  }

  var diagnostics: [Diagnostic] {
    dropped == 0 ? kept : kept + [Diagnostic(file: file, message: "\(dropped) more errors not shown")]
  }
}
