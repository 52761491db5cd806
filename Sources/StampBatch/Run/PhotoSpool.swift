import Foundation
import StampManifest

/// The photos render's check found for each job over many photos, kept in a private file so that the render pass
/// renders exactly that list: a photo added to the folder after the check is not rendered, one removed fails its job
/// alone ("no such file"), and a list read from standard input is read once. Memory holds one buffer; the file is
/// removed from its folder as soon as it is made (it goes when the process does, whatever ends it).
///
/// Records: a photo as its relative path and its path, each ended by a NUL byte (no path holds one); the end of a
/// job's photos as one NUL more (a relative path is never empty).
package final class PhotoSpool {
  private let descriptor: Int32
  private var buffer: [UInt8] = []
  private var readOffset = 0
  private var atEnd = false
  /// Why the list could not be kept or read back, told as "the list of photos ...: reason"; nil while all is well.
  package private(set) var failure: String?

  /// A spool in `folder` (default: `TMPDIR`, else /tmp), already removed from it.
  package init(in folder: String? = nil) throws(BatchError) {
    let root = folder ?? ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array((root + "/.stampcam-photos-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { $0.baseAddress.map { mkstemp($0) } ?? -1 }
    guard made >= 0 else { throw BatchError.photoList(folder: root, message: String(cString: strerror(errno))) }
    _ = fcntl(made, F_SETFD, FD_CLOEXEC)
    _ = template.withUnsafeBufferPointer { $0.baseAddress.map { unlink($0) } }
    descriptor = made
  }

  deinit { close(descriptor) }

  /// `source`, with every photo it gives written down, and the end of its photos marked when it ends.
  package func recording(_ source: any PhotoSource) -> any PhotoSource {
    Recorder(source: source, spool: self)
  }

  /// Ends the check's pass: what was written is flushed and the next `next()` reads from the first photo.
  package func rewind() {
    flush()
    buffer.removeAll(keepingCapacity: true)
    readOffset = 0
    atEnd = false
    if failure == nil, lseek(descriptor, 0, SEEK_SET) < 0 { fail(errno) }
  }

  /// The photos of the next job over many photos, as the check's pass wrote them (call `rewind()` first).
  package func nextJob() -> Result<any PhotoSource, PhotoFailure> {
    if let failure { return .failure(PhotoFailure(failure)) }
    return .success(Replay(spool: self))
  }

  fileprivate func write(_ photo: Photo?) {
    if let photo {
      buffer.append(contentsOf: photo.relative.utf8)
      buffer.append(0)
      buffer.append(contentsOf: photo.path.utf8)
    }
    buffer.append(0)
    if buffer.count >= 1 << 16 { flush() }
  }

  private func flush() {
    var done = 0
    while done < buffer.count, failure == nil {
      let n = buffer[done...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
      if n < 0, errno == EINTR { continue }
      if n <= 0 { fail(n < 0 ? errno : ENOSPC) } else { done += n }
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// The next field written (a relative path, a path, or "" for the end of a job's photos); nil at the end of the
  /// file or on a failure.
  fileprivate func readField() -> String? {
    while failure == nil {
      if let nul = buffer[readOffset...].firstIndex(of: 0) {
        defer { readOffset = nul + 1 }
        return String(decoding: buffer[readOffset..<nul], as: UTF8.self)
      }
      if atEnd { return nil }
      buffer.removeFirst(readOffset)
      readOffset = 0
      let start = buffer.count
      buffer.append(contentsOf: repeatElement(0, count: 1 << 16))
      let n = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress.map { $0 + start }, 1 << 16) }
      if n < 0, errno == EINTR {
        buffer.removeLast(1 << 16)
        continue
      }
      buffer.removeLast((1 << 16) - max(n, 0))
      if n < 0 { fail(errno) }
      if n == 0 { atEnd = true }
    }
    return nil
  }

  private func fail(_ code: Int32) {
    guard failure == nil else { return }
    failure = "the list of photos render keeps could not be written or read (\(String(cString: strerror(code))))"
  }

  /// A source written down as it is read.
  private final class Recorder: PhotoSource {
    let source: any PhotoSource
    let spool: PhotoSpool
    init(source: any PhotoSource, spool: PhotoSpool) {
      self.source = source
      self.spool = spool
    }

    func next() -> Result<Photo, PhotoFailure>? {
      let item = source.next()
      switch item {
      case nil: spool.write(nil)
      case .success(let photo): spool.write(photo)
      case .failure: break
      }
      return item
    }
  }

  /// One job's photos read back.
  private final class Replay: PhotoSource {
    let spool: PhotoSpool
    var ended = false
    init(spool: PhotoSpool) { self.spool = spool }

    func next() -> Result<Photo, PhotoFailure>? {
      if ended { return nil }
      guard let relative = spool.readField() else {
        ended = true
        return spool.failure.map { .failure(PhotoFailure($0)) }
      }
      if relative.isEmpty {
        ended = true
        return nil
      }
      guard let path = spool.readField() else {
        ended = true
        return .failure(PhotoFailure(spool.failure ?? "the list of photos render keeps ends in a photo's record"))
      }
      return .success(Photo(relative: relative, path: path))
    }
  }
}
