import Synchronization

/// A value behind a `Mutex`, in a class so that closures and threads can share it: the one lock of stampcam's
/// targets, for the few pieces of state that worker threads share.
package final class Locked<Value>: Sendable {
  private let mutex: Mutex<Value>

  /// Guards `value`.
  package init(_ value: sending Value) {
    mutex = Mutex(value)
  }

  /// Runs `body` on the value with the lock held.
  package func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E)
    -> sending Result
  {
    try mutex.withLock(body)
  }

  /// Runs `body` with the lock held when it is free now; nil when another thread holds it.
  package func withLockIfAvailable<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result)
    throws(E) -> sending Result?
  {
    try mutex.withLockIfAvailable(body)
  }
}
