/// Remembers every job's id and output paths, so that two jobs never share an id or write the same file.
///
/// For a JSON Lines manifest this is the one thing that grows with the number of jobs: two short strings per job.
struct JobRegistry {
  private var ids: [String: Int] = [:]
  private var outputs: [String: Int] = [:]

  /// Records `job`, reporting a repeated id or output path through `walker`.
  mutating func register(_ job: DecodedJob, path: String, walker: inout ManifestWalker) {
    let entry = job.entry
    let jobValue = JSONValue(.null, line: entry.line - walker.lineOffset, column: 1)
    if let other = ids.updateValue(entry.index, forKey: entry.id) {
      ids[entry.id] = other
      walker.report(
        job.idValue ?? jobValue, child(path, "id"), "duplicate job id \"\(entry.id)\" (also jobs[\(other)])")
    }
    let written: [(key: String, path: String?, value: JSONValue?)] = [
      ("output", entry.output, job.outputValue), ("viewOutput", entry.viewOutput, job.viewOutputValue),
    ]
    for (key, output, value) in written {
      guard let output, !output.isEmpty else { continue }
      if let other = outputs.updateValue(entry.index, forKey: output) {
        outputs[output] = other
        let owner = other == entry.index ? "this job's output" : "written by jobs[\(other)]"
        walker.report(value ?? jobValue, child(path, key), "\"\(output)\" is also \(owner)")
      }
    }
  }
}
