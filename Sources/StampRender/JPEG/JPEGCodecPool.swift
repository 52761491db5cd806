import Foundation
import StampFiles

/// Idle codecs kept between jobs, so their libjpeg objects and buffers are allocated (and faulted in) once per
/// worker rather than once per photo. A run makes one and hands it to each job in its `JobContext`.
package final class JPEGCodecPool: Sendable {
  /// Codecs no job is using; each is handed to one job at a time.
  private let idle = Locked<[JPEGCodec]>([])
  /// More idle codecs than concurrent jobs only hold memory.
  private let limit: Int

  /// An empty pool keeping at most `limit` idle codecs.
  package init(limit: Int = 8) {
    self.limit = limit
  }

  /// Runs `body` with a codec no other job is using, stopped by `control`; the codec's file is closed afterwards,
  /// whatever happens.
  func withCodec<T>(stoppedBy control: JobControl?, _ body: (JPEGCodec) throws -> T) throws -> T {
    let codec = try take()
    codec.stop(on: control)
    defer {
      codec.stop(on: nil)
      codec.close()
      give(codec)
    }
    do {
      return try body(codec)
    } catch {
      try control?.checkpoint(codec.path)
      throw error
    }
  }

  /// A codec no other job is using (an idle one, or a new one), closed, until `give` takes it back.
  func take() throws -> JPEGCodec {
    if let reused = idle.withLock({ $0.popLast() }) { return reused }
    guard let codec = JPEGCodec() else {
      throw RenderError.operation(path: "<memory>", operation: "start libjpeg", message: "out of memory")
    }
    return codec
  }

  /// How many codecs wait idle (for tests).
  var idleCount: Int {
    idle.withLock { $0.count }
  }

  /// Frees the idle codecs and the coefficient arrays each keeps (sized to the largest photo it has read): called
  /// before a job that decodes pixels instead, which would otherwise hold both at once. Codecs in use are left.
  func dropIdle() {
    let dropped = idle.withLock { idle in
      defer { idle.removeAll() }
      return idle
    }
    withExtendedLifetime(dropped) {}  // freed here, outside the lock
  }

  /// Takes back a codec from `take` (kept idle while there is room), its file closed.
  func give(_ codec: JPEGCodec) {
    idle.withLock { if $0.count < limit { $0.append(codec) } }
  }
}
