#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

/// The manifest file, open for reading through the system calls directly so that failures carry errno's plain words
/// (StampManifest uses no Foundation file API; the photos and stamps are opened by StampFiles' `InputFile`).
final class ManifestFile {
  let descriptor: Int32
  /// The held file this reads, from its first byte at an offset of its own, checking its version after each read.
  private let held: HeldFile?
  private var offset: Int64 = 0

  private init(descriptor: Int32, held: HeldFile? = nil) {
    self.descriptor = descriptor
    self.held = held
  }

  /// A reader of `descriptor` from where its offset is, which it now owns (and closes).
  convenience init(adopting descriptor: Int32) {
    self.init(descriptor: descriptor)
  }

  /// A pass over `held`, from its first byte.
  convenience init(reading held: HeldFile) {
    self.init(descriptor: dup(held.descriptor), held: held)
  }

  deinit {
    close(descriptor)
  }

  /// Opens `path`, or returns why it cannot be read (`no such file or directory`, `not a regular file`). Only a
  /// regular file is read: a FIFO would block (the manifest is read twice) and a device may never end. It is opened
  /// without blocking, checked, then set to blocking reads.
  static func open(_ path: String) -> (ManifestFile?, String?) {
    let fd = path.withCString { systemOpen($0) }
    if fd < 0 { return (nil, reason(errno)) }
    let input = ManifestFile(descriptor: fd)
    var info = stat()
    guard fstat(fd, &info) == 0 else { return (nil, reason(errno)) }
    guard info.st_mode & S_IFMT == S_IFREG else {
      return (nil, info.st_mode & S_IFMT == S_IFDIR ? "is a directory" : "not a regular file")
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    return (input, nil)
  }

  /// Reads up to `count` bytes into `buffer` after its current contents; 0 at the end of the file.
  func read(appendingTo buffer: inout [UInt8], count: Int) -> Result<Int, ReadFailure> {
    let start = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: count))
    while true {
      let n = buffer.withUnsafeMutableBytes { raw in
        let into = raw.baseAddress.map { $0 + start }
        return held == nil ? systemRead(descriptor, into, count) : pread(descriptor, into, count, off_t(offset))
      }
      if n < 0 && errno == EINTR { continue }
      buffer.removeLast(count - max(n, 0))
      guard n >= 0 else { return .failure(ReadFailure(reason: ManifestFile.reason(errno))) }
      offset += Int64(n)
      // Checked after the read: bytes read before a change are the ones validated.
      if let change = held?.change() { return .failure(ReadFailure(reason: change)) }
      return .success(n)
    }
  }

  /// Reads the whole file, or fails once it holds more than `limit` bytes.
  func readAll(limit: Int) -> Result<[UInt8], ReadFailure> {
    var bytes: [UInt8] = []
    while true {
      switch read(appendingTo: &bytes, count: 1 << 20) {
      case .failure(let failure): return .failure(failure)
      case .success(0): return .success(bytes)
      case .success:
        if bytes.count > limit {
          return .failure(ReadFailure(reason: "the file is larger than the limit of \(limit) bytes", tooLarge: true))
        }
      }
    }
  }

  /// errno in the lower-case words messages use.
  static func reason(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    let words = String(cString: text)
    return words.prefix(1).lowercased() + words.dropFirst()
  }
}

// Free functions, so that the system's `open` and `read` are not shadowed by the class's methods.
private func systemOpen(_ path: UnsafePointer<CChar>) -> Int32 {
  open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
}

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(fd, buffer, count)
}

/// Why a read failed.
struct ReadFailure: Error {
  var reason: String
  var tooLarge = false
}
