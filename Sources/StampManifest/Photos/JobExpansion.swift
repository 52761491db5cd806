import StampCore

/// Where a job over many photos finds them: its set's own source (`PhotoSet.photos(of:)`), or, in render's second
/// pass, the list the first pass kept.
package typealias PhotoSources = (JobEntry) -> Result<any PhotoSource, PhotoFailure>

/// The jobs a manifest makes, in order: a listed job as it is, a job over many photos (`photos`) as one job for each
/// of its photos, in the photos' fixed order (see `PhotoWalk`, `ListPhotos`).
///
/// A photo's job is its template's, with the id `JOBID/RELATIVE-PATH`, the photo as its base, and its `output` and
/// `viewOutput` filled (see `OutputTemplate`). Every job gets its `ordinal`, its place among the jobs made (what
/// `--shard` splits): a listed job keeps its manifest index plus the photos made before it less their templates, so
/// a manifest without a job over many photos shards exactly as before.
///
/// Checking (`checking: true`, the pass before anything is written) also refuses, as failed records naming both
/// photos: a filled output that breaks the output rules, two jobs writing one file, an id a photo's job also has, a
/// set of photos that cannot be read, one that finds no photo. Memory holds a fixed-size hash for each made job's
/// output paths (see `OutputHashes`) and nothing that grows with the photos otherwise; the photos themselves stream.
package struct JobExpansion<Jobs: IteratorProtocol<Result<JobEntry, ManifestError>>>: IteratorProtocol {
  package typealias Element = Result<JobEntry, ManifestError>
  package typealias Sources = PhotoSources

  private var jobs: Jobs
  private let file: String
  private let sources: Sources
  private var checks: Checks?
  /// The job over many photos being expanded, its photos, and how many it made so far.
  private var current: (template: JobEntry, photos: any PhotoSource, made: Int, failed: Bool)?
  /// Photos made beyond one job each, so far (the ordinals' offset from the manifest's indexes).
  private var extra = 0
  /// Every job made so far (every photo counted), for the caller's tally.
  package private(set) var count = 0

  /// The jobs `jobs` make; `file` names the manifest in diagnostics. `checking` adds the checks above.
  package init(
    _ jobs: Jobs, file: String, checking: Bool, overlayForEveryJob: Bool = false,
    maxComponents: Int = Limits().maxOutputComponents, sources: @escaping Sources = PhotoSet.photos(of:)
  ) {
    self.jobs = jobs
    self.file = file
    self.sources = sources
    checks = checking ? Checks(file: file, overlayForEveryJob: overlayForEveryJob, maxComponents: maxComponents) : nil
  }

  package mutating func next() -> Element? {
    while true {
      if let made = nextPhoto() { return made }
      guard let record = jobs.next() else { return nil }
      guard case .success(var job) = record else { return record }
      guard job.photos != nil else {
        job.ordinal = job.index + extra
        count += 1
        if let problem = checks?.listed(job) { return .failure(problem) }
        return .success(job)
      }
      if let problem = checks?.template(job) { return .failure(problem) }
      switch sources(job) {
      case .failure(let failure): return .failure(photosError(job, failure.message))
      case .success(let photos): current = (job, photos, 0, false)
      }
    }
  }

  /// The next job of the job over many photos being expanded; nil when there is none (or no more).
  private mutating func nextPhoto() -> Element? {
    guard let (template, photos, made, failed) = current else { return nil }
    guard let item = photos.next() else {
      current = nil
      // A set that found no photo is an error; one whose reading failed was told so already.
      if made == 0, !failed, let set = template.photos {
        let verb = if case .list = set.source { "names" } else { "matches" }
        return .failure(photosError(template, "\(set.written) \(verb) no photo"))
      }
      extra += max(made - 1, 0)
      return nil
    }
    switch item {
    case .failure(let failure):
      current?.failed = true
      return .failure(photosError(template, failure.message))
    case .success(let photo):
      current?.made = made + 1
      let job = Self.job(of: photo, template: template, index: made, ordinal: template.index + extra + made)
      count += 1
      if let problem = checks?.made(job, photo: made) { return .failure(problem) }
      return .success(job)
    }
  }

  /// The job `template` makes for its `index`-th photo, `photo`, at `ordinal` among every job made.
  package static func job(of photo: Photo, template: JobEntry, index: Int, ordinal: Int) -> JobEntry {
    var job = template
    job.id = template.id + "/" + photo.relative
    job.base = photo.path
    job.photo = photo.relative
    if case .glob = template.photos?.source { job.photoFoundByWalk = true }
    job.photos = nil
    job.ordinal = ordinal
    // `{dir}` is empty at the root: "{dir}/{stem}.jpg" fills to "/a.jpg", normalized to "a.jpg".
    let fill = { (template: String) in
      PathRules.normalize(OutputTemplate.fill(template, photo: photo.relative, index: index))
    }
    job.output = fill(template.output)
    job.viewOutput = template.viewOutput.map(fill)
    return job
  }

  /// The job `jobs` make at `position` (`JobEntry.position`), made again without checks to name it in a message:
  /// nil when it is not made, or when anything before it fails (the places after a failure cannot be trusted). A
  /// list on standard input is not read again (it was read once).
  package static func job(at position: Int, in jobs: Jobs, file: String) -> JobEntry? {
    let sources: Sources = { job in
      if case .list("-") = job.photos?.source { return .failure(PhotoFailure("standard input was read")) }
      return PhotoSet.photos(of: job)
    }
    var made = JobExpansion(jobs, file: file, checking: false, sources: sources)
    while let record = made.next() {
      guard case .success(let job) = record, job.position <= position else { return nil }
      if job.position == position { return job }
    }
    return nil
  }

  private func photosError(_ template: JobEntry, _ message: String) -> ManifestError {
    ManifestError(file: file, line: template.line, path: "jobs[\(template.index)].photos", message: message)
  }
}

extension JobExpansion {
  /// What the checking pass remembers: a hash for each output written so far with its job's number (see
  /// `OutputHashes`), the jobs over many photos and the listed ids that could be one of theirs, and whether standard
  /// input was taken. A made job is numbered by its template and its photo's place, and named again, when one of
  /// its outputs meets a later one, by walking its template's photos again to that place (a few times at most: past
  /// `maxWalksAgain`, or for a list read from standard input, it is told by its place).
  struct Checks {
    typealias Owner = OutputHashes.Owner
    let file: String
    let overlayForEveryJob: Bool
    let maxComponents: Int
    private var outputs = OutputHashes()
    /// The jobs over many photos, in manifest order (a made job's number holds its template's place here).
    private var templates: [JobEntry] = []
    /// The listed jobs' ids, in order (a listed job's number holds its place here, with `listedBit`).
    private var listedIDs: [String] = []
    /// Ids of jobs over many photos, and listed ids with a `/` (the only ones a photo's job can share).
    private var templateIDs: Set<String> = []
    private var slashIDs: Set<String> = []
    private var standardInputTaken = false
    /// How many times a template's photos were walked again to name a job.
    private var walksAgain = 0
    /// At most this many walks again in one pass: each reads the template's photos up to the one named.
    static var maxWalksAgain: Int { 16 }
    private static var listedBit: Owner { 1 << 62 }
    private static var photoBits: Owner { 40 }

    init(file: String, overlayForEveryJob: Bool, maxComponents: Int) {
      self.file = file
      self.overlayForEveryJob = overlayForEveryJob
      self.maxComponents = maxComponents
    }

    /// A listed job's outputs and id, kept so that a photo's job meeting them is refused (the decoder has already
    /// told the clashes between listed jobs).
    mutating func listed(_ job: JobEntry) -> ManifestError? {
      var problems: [Diagnostic] = []
      if job.id.utf8.contains(PathRules.slash) {
        slashIDs.insert(job.id)
        if let owner = Self.owner(of: job.id, among: templateIDs) {
          problems.append(idClash(job, owner: owner))
        }
      }
      let owner = Self.listedBit | Owner(listedIDs.count)
      listedIDs.append(job.id)
      for written in job.outputs(overlayForEveryJob: overlayForEveryJob) where !written.path.isEmpty {
        // Told only when the other side is a photo's job: its id has its template's and a "/".
        if let clash = outputs.add(written.path, owner: owner), clash.owner & Self.listedBit == 0 {
          problems.append(outputClash(job, written, clash, mine: owner))
        }
      }
      return problems.isEmpty ? nil : ManifestError(problems)
    }

    /// A job over many photos: its id, and that only one such job reads standard input.
    mutating func template(_ job: JobEntry) -> ManifestError? {
      templates.append(job)
      templateIDs.insert(job.id)
      var problems: [Diagnostic] = []
      for other in slashIDs where Self.owner(of: other, among: [job.id]) != nil {
        problems.append(
          Diagnostic(
            file: file, line: job.line, path: "jobs[\(job.index)].id",
            message: "job \"\(job.id)\" over many photos names its photos' jobs \"\(job.id)/...\", and a listed "
              + "job is \"\(other)\": rename one"))
      }
      if case .list("-") = job.photos?.source {
        if standardInputTaken {
          problems.append(
            Diagnostic(
              file: file, line: job.line, path: "jobs[\(job.index)].photos.list",
              message: "standard input is read by an earlier job's list: only one job can list its photos on it"))
        }
        standardInputTaken = true
      }
      return problems.isEmpty ? nil : ManifestError(problems)
    }

    /// A photo's job, made of the last template for its `photo`-th photo: its filled outputs keep the output rules
    /// and meet no other job's.
    mutating func made(_ job: JobEntry, photo: Int) -> ManifestError? {
      var problems: [Diagnostic] = []
      let place = "jobs[\(job.index)]"
      let owner = Owner(max(templates.count - 1, 0)) << Self.photoBits | Owner(photo)
      for written in job.outputs(overlayForEveryJob: overlayForEveryJob) {
        if let refusal = PathRules.refusal(ofOutput: written.path, maxComponents: maxComponents) {
          problems.append(
            Diagnostic(
              file: file, line: job.line, path: "\(place).\(written.field)",
              message: "job \"\(job.id)\": \(written.quoted) \(refusal)"))
          continue
        }
        if let clash = outputs.add(written.path, owner: owner) {
          problems.append(outputClash(job, written, clash, mine: owner))
        }
      }
      return problems.isEmpty ? nil : ManifestError(problems)
    }

    /// The id of the job over many photos among `templates` whose photos' jobs `id` is named like, if any.
    static func owner(of id: String, among templates: Set<String>) -> String? {
      var bytes = id.utf8[...]
      while let slash = bytes.lastIndex(of: PathRules.slash) {
        bytes = id.utf8[..<slash]
        let prefix = String(decoding: bytes, as: UTF8.self)
        if templates.contains(prefix) { return prefix }
      }
      return nil
    }

    /// The job numbered `owner` as messages name it: a listed job by its id; a photo's job by its id when, made
    /// again, one of its outputs meets `written` (`path`), else (past the walks again, a list on standard input,
    /// only the hashes met, or the photos changed since) by its place.
    private mutating func earlier(_ owner: Owner, meeting path: String) -> String {
      // A number past what its bits hold (over 4 million jobs over many photos) names no one: told plainly.
      if owner & Self.listedBit != 0 {
        let listed = Int(owner & ~Self.listedBit)
        return listedIDs.indices.contains(listed) ? "job \"\(listedIDs[listed])\"" : "an earlier job"
      }
      let index = Int(owner & (1 << Self.photoBits - 1))
      let slot = Int(owner >> Self.photoBits)
      guard templates.indices.contains(slot) else { return "an earlier job" }
      let template = templates[slot]
      if walksAgain < Self.maxWalksAgain {
        walksAgain += 1
        if let photo = Self.photo(index, of: template) {
          let job = JobExpansion.job(of: photo, template: template, index: index, ordinal: 0)
          var exact = OutputTree()
          let other = OutputTree.Job(index: 0, id: "")
          for output in job.outputs(overlayForEveryJob: overlayForEveryJob) where !output.path.isEmpty {
            _ = exact.add(output.path, job: other)
          }
          if exact.add(path, job: other) != nil { return "job \"\(job.id)\"" }
        }
      }
      return "the photo with {index} \(index) of job \"\(template.id)\""
    }

    /// The `index`-th photo `template`'s set gives when read again; nil for a list on standard input (read once),
    /// or when the set no longer has it.
    static func photo(_ index: Int, of template: JobEntry) -> Photo? {
      guard let set = template.photos else { return nil }
      if case .list("-") = set.source { return nil }
      guard case .success(let photos) = set.photos() else { return nil }
      var seen = 0
      while let item = photos.next() {
        guard case .success(let photo) = item else { continue }
        if seen == index { return photo }
        seen += 1
      }
      return nil
    }

    private func idClash(_ job: JobEntry, owner: String) -> Diagnostic {
      Diagnostic(
        file: file, line: job.line, path: "jobs[\(job.index)].id",
        message: "job id \"\(job.id)\" is named like the jobs of \"\(owner)\", a job over many photos "
          + "(\"\(owner)/PHOTO\"): rename one")
    }

    /// The clash of `written`, an output of `job` (numbered `mine`), with an earlier output.
    private mutating func outputClash(
      _ job: JobEntry, _ written: JobOutput, _ clash: OutputHashes.Clash, mine: Owner
    ) -> Diagnostic {
      let sameJob = clash.owner == mine
      let phrase = sameJob ? "this job" : earlier(clash.owner, meeting: written.path)
      let message = clash.tree(OutputTree.Job(index: 0, id: "")).message(of: written, writer: job.id, sameJob: sameJob)
      {
        _ in phrase
      }
      return Diagnostic(file: file, line: job.line, path: "jobs[\(job.index)].\(written.field)", message: message)
    }
  }
}
