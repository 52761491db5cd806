/// Remembers every job's id and output paths, so that two jobs never share an id or write the same file, and no
/// output is a folder another output needs.
///
/// For a JSON Lines manifest this is the one thing that grows with the number of jobs: an id and the output paths'
/// distinct components per job.
struct JobRegistry {
  private var ids: [String: Int] = [:]
  private var outputs = OutputTree()
  /// Every job writes its overlay, whatever it says (`render --overlay`).
  let overlayForEveryJob: Bool

  init(overlayForEveryJob: Bool = false) {
    self.overlayForEveryJob = overlayForEveryJob
  }

  /// Records `job`, reporting a repeated id or an output that clashes with another through `walker`.
  mutating func register(_ job: DecodedJob, path: String, walker: inout ManifestWalker) {
    let entry = job.entry
    let jobValue = JSONValue(.null, line: entry.line - walker.lineOffset, column: 1)
    if let other = ids.updateValue(entry.index, forKey: entry.id) {
      ids[entry.id] = other
      walker.report(
        job.idValue ?? jobValue, child(path, "id"), "duplicate job id \"\(entry.id)\" (also jobs[\(other)])")
    }
    let writer = OutputTree.Job(index: entry.index, id: entry.id)
    // A job over many photos writes its photos' files, checked as it is expanded (`JobExpansion`): its outputs
    // here are templates, not files.
    let written = entry.photos == nil ? entry.outputs(overlayForEveryJob: overlayForEveryJob) : []
    for written in written {
      guard !written.path.isEmpty, let clash = outputs.add(written.path, job: writer) else { continue }
      // Both jobs named, by index and id; "this job" when an output meets another of the same job.
      let message = clash.message(of: written, writer: writer.id, sameJob: clash.job.index == writer.index) { other in
        other.index == writer.index ? "this job" : "jobs[\(other.index)] (job \"\(other.id)\")"
      }
      let value = written.kind == .viewOutput ? job.viewOutputValue : job.outputValue
      walker.report(value ?? jobValue, child(path, written.field), message)
    }
  }
}
