import Dispatch
import Foundation

/// Runs work items on a fixed number of threads, pulling the next item as each finishes.
///
/// Items come from a pull function so that a streamed manifest is read no faster than it is rendered.
enum WorkQueue {
  /// Calls `work` for every item `next` returns until it returns nil, with at most `width` calls in flight.
  static func run<Item>(width: Int, next: @escaping @Sendable () -> Item?, work: @escaping @Sendable (Item) -> Void) {
    let group = DispatchGroup()
    let queue = DispatchQueue(label: "stampcam.jobs", attributes: .concurrent)
    for _ in 0..<max(1, width) {
      queue.async(group: group) {
        while let item = next() {
          work(item)
        }
      }
    }
    group.wait()
  }
}

/// A value guarded by a lock, for the few pieces of state that worker threads (and signal handlers) share.
public final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  /// Guards `value`.
  public init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` on the value with the lock held.
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
