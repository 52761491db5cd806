/// The files the jobs over many photos write under `--out`, held as fixed-size hashes of their paths, so that
/// checking a million photos' outputs takes a few dozen bytes a photo whatever the paths' lengths: no two outputs are
/// one file, and no output is a folder another needs (`d.jpg` beside `d.jpg/x.jpg`). Each of a path's prefixes
/// (`a`, `a/b`, `a/b/c.jpg`) is one 64-bit hash of its components' bytes, compared byte for byte as `OutputTree`
/// compares them, with the owner of the output that first needed it: a number the caller can name again (see
/// `JobExpansion.Checks`), so no id or path is kept. Two paths hashing alike is a clash told here and found false by
/// the caller when it finds the earlier output again.
struct OutputHashes {
  /// Who first wrote a file or needed a folder: any number below 2^63, the caller's to name.
  typealias Owner = UInt64

  /// How a new output meets an earlier one, as `OutputTree.Clash` tells it, with the earlier output's owner.
  enum Clash: Equatable {
    case sameFile(Owner)
    case isFolder(Owner)
    case underFile(Owner, name: String)

    /// The earlier output's owner.
    var owner: Owner {
      switch self {
      case .sameFile(let owner), .isFolder(let owner), .underFile(let owner, _): return owner
      }
    }

    /// The clash as `OutputTree` words it, with `job` the earlier job.
    func tree(_ job: OutputTree.Job) -> OutputTree.Clash {
      switch self {
      case .sameFile: return .sameFile(job: job)
      case .isFolder: return .isFolder(job: job)
      case .underFile(_, let name): return .underFile(job: job, name: name)
      }
    }
  }

  /// A prefix's hash: its owner shifted left by one, and 1 when it is a file.
  private var nodes: [Int: UInt64] = [:]

  /// How many prefixes are held.
  var count: Int { nodes.count }

  /// Records the normalized output `path` of `owner`; returns how it clashes with an earlier output, if it does.
  mutating func add(_ path: String, owner: Owner) -> Clash? {
    let parts = PathRules.components(path)
    var hasher = Hasher()
    for (k, part) in parts.enumerated() {
      // The length first, so that the components' bytes cannot run together (`ab/c` and `a/bc`).
      hasher.combine(part.utf8.count)
      var bytes = part
      bytes.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
      let prefix = hasher
      let key = prefix.finalize()
      let isFile = k == parts.count - 1
      guard let node = nodes[key] else {
        nodes[key] = owner << 1 | (isFile ? 1 : 0)
        continue
      }
      let (earlier, wasFile) = (node >> 1, node & 1 == 1)
      if isFile { return wasFile ? .sameFile(earlier) : .isFolder(earlier) }
      if wasFile { return .underFile(earlier, name: parts[...k].joined(separator: "/")) }
    }
    return nil
  }
}
