extension ManifestWalker {
  /// The only format version this build reads.
  static let supportedVersion = 1

  /// A whole JSON manifest; the jobs that decoded, or every problem in `diagnostics`.
  mutating func manifest(_ root: JSONValue) -> [JobEntry] {
    guard let m = members(root, Shapes.manifest, ""), version(m, root, "") else { return [] }
    let defaults = value(m, "defaults").map { self.defaults($0, "defaults") } ?? JobDefaults()
    guard let jobsValue = value(m, "jobs") else { return [] }
    guard case .array(let items) = jobsValue.kind else {
      report(jobsValue, "jobs", "expected an array, found \(jobsValue.typeName)")
      return []
    }
    var registry = JobRegistry(overlayForEveryJob: overlayForEveryJob)
    var jobs: [JobEntry] = []
    jobs.reserveCapacity(items.count)
    for (index, item) in items.enumerated() {
      let path = element("jobs", index)
      guard let job = job(item, index: index, path: path, defaults: defaults) else { continue }
      registry.register(job, path: path, walker: &self)
      if job.valid { jobs.append(job.entry) }
    }
    return jobs
  }

  /// A JSON Lines manifest's header line `{"version": 1, "defaults": {...}}`.
  mutating func linesHeader(_ root: JSONValue) -> JobDefaults {
    guard let m = members(root, Shapes.linesHeader, ""), version(m, root, "") else { return JobDefaults() }
    return value(m, "defaults").map { self.defaults($0, "defaults") } ?? JobDefaults()
  }

  /// Checks `version`; false when it is not one this build reads, in which case nothing else is worth checking. A
  /// missing version has been reported already; the rest is checked as version 1.
  private mutating func version(_ m: [JSONMember], _ root: JSONValue, _ path: String) -> Bool {
    guard let v = value(m, "version") else { return true }
    // Any finite number is a version, supported or not: 9e151 is as unsupported as 2.
    let any = NumberBounds(min: -.greatestFiniteMagnitude, minExclusive: false, max: .greatestFiniteMagnitude)
    guard let version = number(v, any, child(path, "version")) else { return false }
    guard version == Double(Self.supportedVersion) else {
      report(v, child(path, "version"), "unsupported version \(format(version)) (this stampcam reads version 1)")
      return false
    }
    return true
  }
}
