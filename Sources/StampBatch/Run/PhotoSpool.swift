import Foundation
import StampManifest
import StampSystem

/// The photos render's check found for each job over many photos, kept in a private file so that the render pass
/// renders exactly that list: a photo added to the folder after the check is not rendered, one removed fails its job
/// alone ("no such file"), and a list read from standard input is read once. Memory holds one buffer; the file is
/// removed from its folder as soon as it is made (it goes when the process does, whatever ends it).
///
/// Records: a photo as its relative path and its path, each ended by a NUL byte (no path holds one); the end of a
/// job's photos as one NUL more (a relative path is never empty).
package final class PhotoSpool {
  private let descriptor: FileDescriptor
  private var buffer: [UInt8] = []
  private var readOffset = 0
  private var atEnd = false
  /// Why the list could not be kept or read back, told as "the list of photos ...: reason"; nil while all is well.
  package private(set) var failure: String?

  /// A spool in `folder` (default: `TMPDIR`, else /tmp), already removed from it.
  package init(in folder: String? = nil) throws(BatchError) {
    let root = folder ?? ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    do throws(Errno) {
      descriptor = try FileSystem.unnamedFile(in: root, prefix: ".stampcam-photos-")
    } catch {
      throw BatchError.photoList(folder: root, message: error.description)
    }
  }

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
    guard failure == nil else { return }
    do throws(Errno) { try descriptor.seek(to: 0) } catch { fail(error) }
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
    if failure == nil {
      do throws(Errno) { try descriptor.writeAll(buffer[...]) } catch { fail(error) }
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
      do throws(Errno) {
        let n = try descriptor.read(into: &buffer, from: start)
        buffer.removeLast((1 << 16) - n)
        if n == 0 { atEnd = true }
      } catch {
        buffer.removeLast(1 << 16)
        fail(error)
      }
    }
    return nil
  }

  private func fail(_ error: Errno) {
    guard failure == nil else { return }
    failure = "the list of photos render keeps could not be written or read (\(error))"
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
