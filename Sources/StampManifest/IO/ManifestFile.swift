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

/// The manifest file, open for reading through StampSystem's descriptors so that failures carry errno's plain words
/// (StampManifest uses no Foundation file API; the photos and stamps are opened by StampFiles' `InputFile`).
final class ManifestFile {
  let descriptor: FileDescriptor
  /// The held file this reads, from its first byte at an offset of its own, checking its version after each read.
  private let held: HeldFile?
  private var offset: Int64 = 0

  private init(descriptor: consuming FileDescriptor, held: HeldFile? = nil) {
    self.descriptor = descriptor
    self.held = held
  }

  /// A reader of `descriptor` from where its offset is, which it now owns (and closes).
  convenience init(adopting descriptor: consuming FileDescriptor) {
    self.init(descriptor: descriptor)
  }

  /// A pass over `held`, from its first byte, through a descriptor of its own; or why there is none.
  static func reading(_ held: HeldFile) -> (ManifestFile?, String?) {
    do throws(Errno) {
      return (ManifestFile(descriptor: try held.descriptor.duplicate(), held: held), nil)
    } catch {
      return (nil, error.description)
    }
  }

  /// Opens `path`, or returns why it cannot be read (`no such file or directory`, `not a regular file`).
  static func open(_ path: String) -> (ManifestFile?, String?) {
    do throws(ReadFailure) {
      return (ManifestFile(descriptor: try openRegularFile(path)), nil)
    } catch {
      return (nil, error.reason)
    }
  }

  /// Opens `path` for reading when it is a regular file: a FIFO would block (the manifest is read twice) and a
  /// device may never end. It is opened without blocking, checked, then set to blocking reads.
  static func openRegularFile(_ path: String) throws(ReadFailure) -> FileDescriptor {
    let file: FileDescriptor
    do throws(Errno) {
      file = try FileDescriptor.open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK)
    } catch {
      throw ReadFailure(reason: error.description)
    }
    let status: FileStatus
    do throws(Errno) {
      status = try file.status()
    } catch {
      throw ReadFailure(reason: error.description)
    }
    guard status.kind == .regular else {
      throw ReadFailure(reason: status.kind == .folder ? "is a directory" : "not a regular file")
    }
    try? file.setBlocking()
    return file
  }

  /// Reads up to `count` bytes into `buffer` after its current contents; 0 at the end of the file.
  func read(appendingTo buffer: inout [UInt8], count: Int) -> Result<Int, ReadFailure> {
    let start = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: count))
    let n: Int
    do throws(Errno) {
      n = try descriptor.read(into: &buffer, from: start, at: held == nil ? nil : offset)
    } catch {
      buffer.removeLast(count)
      return .failure(ReadFailure(reason: error.description))
    }
    buffer.removeLast(count - n)
    offset += Int64(n)
    // Checked after the read: bytes read before a change are the ones validated.
    if let change = held?.change() { return .failure(ReadFailure(reason: change)) }
    return .success(n)
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
}

/// Why a read failed.
struct ReadFailure: Error {
  var reason: String
  var tooLarge = false
}
