/// The photos a glob matches, found depth first from its root (resolved against `folder`, the manifest's folder;
/// "" for the current folder): each folder's entries sorted by their bytes, a sub-folder's photos coming at the
/// sub-folder's place in that order. Memory holds the sorted entries of the folders on the current path only (a
/// folder of 1,000,000 photos is held once as names, never the whole tree). Symbolic links are never followed into:
/// a link whose name matches is yielded (its job opens it only when --input-root holds its target), a link to a
/// folder is not entered. Entries that match but are not regular files (FIFOs, sockets, folders named like photos) are yielded too:
/// they fail their job alone at render, where the input check reports them. Only folders whose remaining pattern
/// can still match are entered (`a/*.jpg` never reads `a/b/`). Entries are typed with d_type, and with
/// fstatat(AT_SYMLINK_NOFOLLOW) when d_type is DT_UNKNOWN. Folders are opened with
/// openat(O_DIRECTORY|O_NOFOLLOW|O_CLOEXEC) relative to their parent's descriptor and read with fdopendir/readdir.
///
/// The root itself is opened as named, through any links in it. A folder that both matches and may hold matches
/// (`x.jpg/` under `**/*.jpg`) is yielded, then walked. A name that is not UTF-8 cannot be told as a `String`: it
/// comes as a failure of its folder. Copies of a walk share one position (the open folders are held once).
package struct PhotoWalk: IteratorProtocol, Sequence {
  /// A folder that could not be read, named by its path from the current folder (the walk's `folder` joined with
  /// the glob's root and the folder's path under it).
  package struct Failure: Error, Hashable, CustomStringConvertible {
    /// The folder's path.
    package var folder: String
    /// Why, in lower case: "permission denied", "not a directory".
    package var reason: String

    /// "folder: reason".
    package var description: String { "\(folder): \(reason)" }
  }

  private let walker: Walker

  /// A walk of the photos `glob` matches under `folder` (nothing is read until the first `next()`).
  package init(_ glob: PhotoGlob, in folder: String) {
    walker = Walker(glob: glob, rootPath: PhotoWalk.join(folder, glob.root))
  }

  /// The next photo's path relative to the glob's root ("2024/a.jpg"), or a folder that could not be read (the walk
  /// goes on past it; a root that does not exist or is not a folder is one failure, then the end).
  package mutating func next() -> Result<String, Failure>? {
    walker.next()
  }

  /// `folder` and `root` as one path: "." when both are empty, `root` alone when it is absolute.
  static func join(_ folder: String, _ root: String) -> String {
    if root.hasPrefix("/") || folder.isEmpty { return root.isEmpty ? "." : root }
    if root.isEmpty { return folder }
    return folder.hasSuffix("/") ? folder + root : folder + "/" + root
  }
}

extension PhotoWalk {
  /// The walk's state: the folders on the current path, innermost last, each closed as it is left or when the walk
  /// is dropped.
  final class Walker {
    private let glob: PhotoGlob
    private let rootPath: String
    private var started = false
    private var path: [PhotoFolder] = []
    /// What comes before the next entry is looked at: a folder's failure after the photo it is also named like.
    private var ready: [Result<String, Failure>] = []

    init(glob: PhotoGlob, rootPath: String) {
      self.glob = glob
      self.rootPath = rootPath
    }

    func next() -> Result<String, Failure>? {
      if !started {
        started = true
        switch PhotoFolder.openRoot(rootPath, glob: glob) {
        case .success(let root): path.append(root)
        case .failure(let failure): return .failure(failure)
        }
      }
      while true {
        if !ready.isEmpty { return ready.removeFirst() }
        guard let folder = path.last else { return nil }
        guard let entry = folder.nextEntry() else {
          path.removeLast()
          continue
        }
        let name = folder.name(of: entry)
        guard let text = String(validating: name, as: UTF8.self) else {
          let shown = String(decoding: name, as: UTF8.self)
          return .failure(Failure(folder: folder.path, reason: "a name that is not UTF-8 (\(shown))"))
        }
        if entry.isPhoto { ready.append(.success(folder.relative + text)) }
        if entry.isFolder {
          switch folder.enter(entry, named: text, glob: glob) {
          case .success(let inner): path.append(inner)
          case .failure(let failure): ready.append(.failure(failure))
          }
        }
      }
    }
  }
}
