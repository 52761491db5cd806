import Foundation

/// Bytes for a region's pixels that a codec keeps from one job to the next.
///
/// A region strip is a megabyte or more (640 x 640 RGB is 1.2 MB), which glibc maps afresh for every allocation
/// past stampcam's mmap threshold (see `scv_do_init`): each new buffer cost a page fault every 4 KB, and a region
/// went through four of them (decoded, copied into libvips, composited, copied out). Kept here, a batch faults them
/// in once per worker. A buffer grown past `keptBytes` is given back when the job ends, so one huge photo does not
/// pin its strips' memory for the rest of the batch.
final class PixelBuffer {
  /// The most a buffer keeps between jobs: a 4,000-pixel-wide strip of 512 rows in RGB is 6 MB.
  static let keptBytes = 8 << 20

  private var start: UnsafeMutableRawPointer?
  private(set) var capacity = 0

  deinit {
    start?.deallocate()
  }

  /// At least `count` bytes (their content is whatever was there before); valid until the next call.
  func bytes(_ count: Int) -> UnsafeMutableRawBufferPointer {
    let count = max(count, 1)
    if count > capacity {
      start?.deallocate()
      start = nil
      capacity = 0
      start = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
      capacity = count
    }
    return UnsafeMutableRawBufferPointer(start: start, count: count)
  }

  /// Gives the memory back when it has grown past `keptBytes`.
  func trim() {
    guard capacity > Self.keptBytes else { return }
    start?.deallocate()
    start = nil
    capacity = 0
  }
}
