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

  /// The descriptor the folder is open on, closed in `deinit`.
  private let descriptor: Int32
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

  private init(descriptor: Int32, path: String, relative: String, states: [Int]) {
    self.descriptor = descriptor
    self.path = path
    self.relative = relative
    self.states = states
  }

  deinit {
    close(descriptor)
  }

  /// The glob's root folder, read.
  static func openRoot(_ path: String, glob: PhotoGlob) -> Result<PhotoFolder, PhotoWalk.Failure> {
    let fd = retryingEINTR { path.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } }
    guard fd >= 0 else { return .failure(PhotoWalk.Failure(folder: path, reason: ManifestFile.reason(errno))) }
    return read(PhotoFolder(descriptor: fd, path: path, relative: "", states: glob.start), glob: glob)
  }

  /// The sub-folder `entry` (named `text`), opened relative to this one without following a link, and read.
  func enter(_ entry: Entry, named text: String, glob: PhotoGlob) -> Result<PhotoFolder, PhotoWalk.Failure> {
    let innerPath = path.hasSuffix("/") ? path + text : path + "/" + text
    let inner = names.withUnsafeBufferPointer { all in
      glob.step(states, name: UnsafeBufferPointer(rebasing: all[entry.bytes]))
    }
    let fd = retryingEINTR {
      text.withCString { openat(descriptor, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
    }
    guard fd >= 0 else { return .failure(PhotoWalk.Failure(folder: innerPath, reason: ManifestFile.reason(errno))) }
    let folder = PhotoFolder(descriptor: fd, path: innerPath, relative: relative + text + "/", states: inner)
    return PhotoFolder.read(folder, glob: glob)
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
    let failure = { (code: Int32) in PhotoWalk.Failure(folder: folder.path, reason: ManifestFile.reason(code)) }
    // The stream owns (and closes) a copy of the descriptor, so the folder's own stays open for its sub-folders.
    let copy = dup(folder.descriptor)
    guard copy >= 0 else { return .failure(failure(errno)) }
    guard let stream = fdopendir(copy) else {
      let code = errno
      close(copy)
      return .failure(failure(code))
    }
    defer { closedir(stream) }
    while true {
      errno = 0
      guard let entry = readdir(stream) else {
        if errno == EINTR { continue }
        if errno != 0 { return .failure(failure(errno)) }
        break
      }
      let type = entry.pointee.d_type
      withUnsafeBytes(of: &entry.pointee.d_name) { raw in
        let bytes = raw.bindMemory(to: UInt8.self)
        let length = bytes.firstIndex(of: 0) ?? bytes.count
        folder.keep(UnsafeBufferPointer(rebasing: bytes[..<length]), type: type, glob: glob)
      }
    }
    folder.sortEntries()
    return .success(folder)
  }

  /// Adds `name` to the entries when the walk will yield or enter it.
  private func keep(_ name: UnsafeBufferPointer<UInt8>, type: UInt8, glob: PhotoGlob) {
    if name.elementsEqual(".".utf8) || name.elementsEqual("..".utf8) { return }
    let next = glob.step(states, name: name)
    let isPhoto = next.contains(glob.components.count)
    let mayHold = next.contains { $0 < glob.components.count }
    let isFolder = mayHold && isRealFolder(name, type: type)
    guard isPhoto || isFolder else { return }
    let start = names.count
    names.append(contentsOf: name)
    entries.append(Entry(bytes: start..<names.count, isPhoto: isPhoto, isFolder: isFolder))
  }

  /// Whether `name` is a folder itself (a link to one is not), from d_type or, when that is unknown, from fstatat.
  private func isRealFolder(_ name: UnsafeBufferPointer<UInt8>, type: UInt8) -> Bool {
    if Int32(type) == Int32(DT_DIR) { return true }
    guard Int32(type) == Int32(DT_UNKNOWN) else { return false }
    let cName = name.map { CChar(bitPattern: $0) } + [0]
    var info = stat()
    let result = retryingEINTR { fstatat(descriptor, cName, &info, AT_SYMLINK_NOFOLLOW) }
    // One that vanished since it was listed is not walked into; it is no photo either way.
    return result == 0 && info.st_mode & S_IFMT == S_IFDIR
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

/// `call`'s result, calling again while it fails with EINTR.
private func retryingEINTR(_ call: () -> Int32) -> Int32 {
  while true {
    let result = call()
    if result >= 0 || errno != EINTR { return result }
  }
}
