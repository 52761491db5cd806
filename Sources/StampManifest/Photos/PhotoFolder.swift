import StampSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

/// One folder on a walk's current path: its descriptor, held open so that its sub-folders open relative to it, and
/// its entries that matter (photos, and folders that may hold photos), sorted by their bytes. Every system call of
/// the walk is here.
final class PhotoFolder {
  /// An entry kept: its name's bytes in `names`, and what the walk does with it.
  struct Entry {
    /// Where its name's bytes are in `names`.
    var bytes: Range<Int>
    /// Its name matches the whole pattern.
    var isPhoto: Bool
    /// A real folder (not a link to one) whose name leaves some pattern to match inside it.
    var isFolder: Bool
  }

  /// The descriptor the folder is open on.
  private let descriptor: FileDescriptor
  /// Its path from the current folder, for failures.
  let path: String
  /// Its path under the glob's root with a "/" after it, "" for the root: what its photos' paths start with.
  let relative: String
  /// Where in the glob's components its entries are matched from.
  private let states: [Int]
  /// The kept entries' names, back to back.
  private var names: [UInt8] = []
  private var entries: [Entry] = []
  private var nextIndex = 0

  private init(descriptor: consuming FileDescriptor, path: String, relative: String, states: [Int]) {
    self.descriptor = descriptor
    self.path = path
    self.relative = relative
    self.states = states
  }

  /// The glob's root folder, read.
  static func openRoot(_ path: String, glob: PhotoGlob) -> Result<PhotoFolder, PhotoWalk.Failure> {
    do throws(Errno) {
      let fd = try FileDescriptor.open(path, O_RDONLY | O_DIRECTORY)
      return read(PhotoFolder(descriptor: fd, path: path, relative: "", states: glob.start), glob: glob)
    } catch {
      return .failure(PhotoWalk.Failure(folder: path, reason: error.description))
    }
  }

  /// The sub-folder `entry` (named `text`), opened relative to this one without following a link, and read.
  func enter(_ entry: Entry, named text: String, glob: PhotoGlob) -> Result<PhotoFolder, PhotoWalk.Failure> {
    let innerPath = path.hasSuffix("/") ? path + text : path + "/" + text
    let inner = names.withUnsafeBufferPointer { all in
      glob.step(states, name: UnsafeBufferPointer(rebasing: all[entry.bytes]))
    }
    do throws(Errno) {
      let fd = try descriptor.open(entry: text, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
      let folder = PhotoFolder(descriptor: fd, path: innerPath, relative: relative + text + "/", states: inner)
      return PhotoFolder.read(folder, glob: glob)
    } catch {
      return .failure(PhotoWalk.Failure(folder: innerPath, reason: error.description))
    }
  }

  /// The next entry in byte order, or nil after the last.
  func nextEntry() -> Entry? {
    guard nextIndex < entries.count else { return nil }
    defer { nextIndex += 1 }
    return entries[nextIndex]
  }

  /// An entry's name's bytes.
  func name(of entry: Entry) -> ArraySlice<UInt8> {
    names[entry.bytes]
  }

  /// Lists `folder`'s entries that matter and sorts them, or says why they cannot be listed (the folder is then
  /// closed with the failure).
  private static func read(_ folder: PhotoFolder, glob: PhotoGlob) -> Result<PhotoFolder, PhotoWalk.Failure> {
    // The listing reads a duplicate of the descriptor, so the folder's own stays open for its sub-folders.
    do throws(Errno) {
      try folder.descriptor.forEachEntry { name, kind in folder.keep(name, kind: kind, glob: glob) }
    } catch {
      return .failure(PhotoWalk.Failure(folder: folder.path, reason: error.description))
    }
    folder.sortEntries()
    return .success(folder)
  }

  /// Adds `name` to the entries when the walk will yield or enter it.
  private func keep(_ name: UnsafeBufferPointer<UInt8>, kind: FileStatus.Kind?, glob: PhotoGlob) {
    let next = glob.step(states, name: name)
    let isPhoto = next.contains(glob.components.count)
    let mayHold = next.contains { $0 < glob.components.count }
    let isFolder = mayHold && isRealFolder(name, kind: kind)
    guard isPhoto || isFolder else { return }
    let start = names.count
    names.append(contentsOf: name)
    entries.append(Entry(bytes: start..<names.count, isPhoto: isPhoto, isFolder: isFolder))
  }

  /// Whether `name` is a folder itself (a link to one is not), from d_type or, when that is unknown, from fstatat.
  private func isRealFolder(_ name: UnsafeBufferPointer<UInt8>, kind: FileStatus.Kind?) -> Bool {
    if let kind { return kind == .folder }
    // One that vanished since it was listed is not walked into; it is no photo either way.
    return (try? descriptor.status(ofEntry: name))?.kind == .folder
  }

  /// Sorts the entries by their names' bytes, a shorter name before any it begins.
  private func sortEntries() {
    names.withUnsafeBufferPointer { all in
      guard let base = all.baseAddress else { return }
      entries.sort { a, b in
        let order = memcmp(base + a.bytes.lowerBound, base + b.bytes.lowerBound, min(a.bytes.count, b.bytes.count))
        return order != 0 ? order < 0 : a.bytes.count < b.bytes.count
      }
    }
  }
}
