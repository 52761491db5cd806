import StampCore
import StampManifest

/// The photos of a job over many photos that the recorder can step through: the job's expansion, in the batch's own
/// order (`JobExpansion`, with the checks `validate` makes), and the one shown now.
///
/// Memory: the photos are held as their paths only (a photo's bytes are read when it is shown, one photo at a time),
/// packed as bytes: each photo's relative path and path, plus 8 bytes for where they start, about 130 bytes a photo
/// for 60-byte paths (13 MB for 100,000 photos). The packed paths stop at `maxPathBytes` (default the manifest's own
/// size limit, `Limits.maxBytes`, 64 MiB): photos past it are still walked, checked and counted, and the page says
/// how many of them can be shown.
package struct PhotoSteps: Sendable {
  /// The job as the manifest writes it: `photos`, its `output` template and its stamps' `photoCenter` as given.
  package let template: JobEntry
  /// How many photos the job makes (every one, also those past the held paths).
  package let total: Int
  /// The photo shown now, from 0 (its `{index}`).
  package private(set) var index = 0
  /// The photos' relative paths and paths, each ended by a NUL byte (no path holds one).
  private let paths: [UInt8]
  /// Where each photo's record starts in `paths`.
  private let starts: [Int]

  /// The expansion of one job over many photos (no other job of its manifest), as `JobExpansion` gives it.
  typealias Expansion = JobExpansion<IndexingIterator<[Result<JobEntry, ManifestError>]>>

  /// The photos `template` makes (`file` names the manifest in messages), holding at most `maxPathBytes` of paths.
  ///
  /// - Throws: `RecordError.manifest` with what `validate` would say when the job cannot be expanded: a folder that
  ///   cannot be read, a glob that matches nothing, two photos writing one output.
  package init(
    _ template: JobEntry, file: String, maxPathBytes: Int = Limits().maxBytes,
    sources: @escaping PhotoSources = PhotoSet.photos(of:)
  ) throws(RecordError) {
    guard template.photos != nil else {
      throw .manifest("\(file): job \"\(template.id)\" has one photo, not a set of them")
    }
    self.template = template
    var expansion = Expansion([.success(template)].makeIterator(), file: file, checking: true, sources: sources)
    var paths: [UInt8] = []
    var starts: [Int] = []
    var problems: [Diagnostic] = []
    var total = 0
    expand: while let made = expansion.next() {
      switch made {
      case .failure(let error):
        problems += error.diagnostics
        if problems.count >= 20 { break expand }
      case .success(let job):
        total += 1
        guard let relative = job.photo else { continue }
        let size = relative.utf8.count + job.base.utf8.count + 2
        guard starts.count == total - 1, paths.count + size <= maxPathBytes else { continue }
        starts.append(paths.count)
        paths += relative.utf8
        paths.append(0)
        paths += job.base.utf8
        paths.append(0)
      }
    }
    guard problems.isEmpty else {
      throw .manifest(
        problems.prefix(20).map(\.description).joined(separator: "\n")
          + "\n(the job's photos cannot be rendered as they stand: `stampcam validate` tells the same)")
    }
    self.paths = paths
    self.starts = starts
    self.total = total
  }

  /// How many photos can be shown: `total`, unless their paths pass the bytes held.
  package var count: Int { starts.count }

  /// The photo at `index` (from 0), or nil past the photos held.
  package func photo(at index: Int) -> Photo? {
    guard starts.indices.contains(index) else { return nil }
    let start = starts[index]
    let tail = paths[start...]
    guard let first = tail.firstIndex(of: 0) else { return nil }
    let rest = paths[(first + 1)...]
    let end = rest.firstIndex(of: 0) ?? paths.endIndex
    return Photo(
      relative: String(decoding: paths[start..<first], as: UTF8.self),
      path: String(decoding: paths[(first + 1)..<end], as: UTF8.self))
  }

  /// The index of the photo whose job is `id` (`JOBID/RELATIVE-PATH`), if it is held.
  package func index(ofJob id: String) -> Int? {
    let prefix = template.id + "/"
    guard id.hasPrefix(prefix) else { return nil }
    let relative = String(id.dropFirst(prefix.count))
    return starts.indices.first { photo(at: $0)?.relative == relative }
  }

  /// The job the batch makes of the photo at `index` when the template's script is `gestures`: its id, base and
  /// filled outputs as `render` makes them, its stamps placed in the photo's terms resolved against that photo. (Its
  /// `ordinal`, which only `--shard` reads, counts this job's photos alone.)
  package func job(at index: Int, gestures: [GestureItem]) -> JobEntry? {
    guard let photo = photo(at: index) else { return nil }
    var template = self.template
    template.gestures = gestures
    return Expansion.job(of: photo, template: template, index: index, ordinal: template.index + index)
  }

  /// Makes `index` the photo shown (the caller checked it is held).
  package mutating func show(_ index: Int) {
    guard starts.indices.contains(index) else { return }
    self.index = index
  }

  /// What the page's photo bar tells: `{"index", "count", "total", "photo", "job"}`.
  package var json: JSONText {
    let photo = self.photo(at: index)
    return .object([
      ("index", .literal(String(index))), ("count", .literal(String(count))), ("total", .literal(String(total))),
      ("photo", .string(photo?.relative ?? "")), ("job", .string(template.id + "/" + (photo?.relative ?? ""))),
    ])
  }
}
