/// The files a manifest's jobs write under `--out`, held as a tree of path components compared byte for byte, so
/// that no two outputs are one file and no output is a folder another output needs (`d.jpg` beside `d.jpg/x.jpg`),
/// while `é.jpg` in NFC and in NFD, two files, are two outputs. A folder shared by many outputs is held once: memory
/// grows with the distinct components, not with the depth of each path times its length.
struct OutputTree {
  /// A name inside a folder: the folder's number (0 for `--out` itself) and the name's bytes.
  private struct Key: Hashable {
    var folder: Int
    var name: [UInt8]
  }

  /// A job, by its index and id, for messages.
  struct Job: Equatable {
    var index: Int
    var id: String
  }

  /// A file one job writes, or a folder one job's output first needed.
  private struct Node {
    var number: Int
    var job: Job
    var isFile: Bool
  }

  /// How a new output meets an earlier one: the same file, a folder the earlier one needs, or a path through the
  /// earlier file as if it were a folder. `job` is the earlier output's job; `name` the part of the path at issue.
  enum Clash: Equatable {
    case sameFile(job: Job)
    case isFolder(job: Job)
    case underFile(job: Job, name: String)
  }

  private var nodes: [Key: Node] = [:]

  /// Records the normalized output `path` of job `job`; returns how it clashes with an earlier output, if it does.
  mutating func add(_ path: String, job: Job) -> Clash? {
    let parts = PathRules.components(path)
    guard let last = parts.last else { return nil }
    var folder = 0
    for (k, part) in parts.dropLast().enumerated() {
      let key = Key(folder: folder, name: Array(part.utf8))
      if let node = nodes[key] {
        if node.isFile { return .underFile(job: node.job, name: parts[...k].joined(separator: "/")) }
        folder = node.number
      } else {
        folder = nodes.count + 1
        nodes[key] = Node(number: folder, job: job, isFile: false)
      }
    }
    let key = Key(folder: folder, name: Array(last.utf8))
    if let node = nodes[key] { return node.isFile ? .sameFile(job: node.job) : .isFolder(job: node.job) }
    nodes[key] = Node(number: nodes.count + 1, job: job, isFile: true)
    return nil
  }
}

extension OutputTree.Clash {
  /// The earlier job the clash is with.
  var job: OutputTree.Job {
    switch self {
    case .sameFile(let job), .isFolder(let job), .underFile(let job, _): return job
    }
  }

  /// The clash told of `written`, an output of the job `writer` (its id): `owner` names the earlier job, and a
  /// clash with `writer`'s own output (`sameJob`) is told as such.
  func message(of written: JobOutput, writer: String, sameJob: Bool, owner: (OutputTree.Job) -> String) -> String {
    let mine = "\(written.quoted) of job \"\(writer)\""
    switch self {
    case .sameFile where sameJob: return "\(written.quoted) is also this job's output"
    case .sameFile(let other): return "\(mine) is also written by \(owner(other)): the same file"
    case .isFolder(let other):
      return "\(mine) is a folder that an output of \(owner(other)) lies in; it cannot also be a file"
    case .underFile(let other, let name):
      return "\(mine) needs \"\(name)\" as a folder, but \(owner(other)) writes it as a file"
    }
  }
}
