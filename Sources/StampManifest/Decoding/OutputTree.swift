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
