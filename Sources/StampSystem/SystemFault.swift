#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

/// A system call of `Syscalls.swift`, as a fault names it.
package enum SystemCall: String, Sendable, CaseIterable {
  case open, openat, close, read, pread, write, fstat, fstatat, stat, lstat, mkdir, mkdirat, renameat, unlinkat
  case unlink, fsync, fchmod, fchown, fcntl, flock, dup, dup2, lseek, realpath, access, readlink, fdopendir, readdir
  case mkstemp, pipe, poll, kill
}

/// One failure to inject: calls of `call` fail with `error`, after `skipping` of them succeed, `count` times.
package struct SystemFault: Sendable {
  /// The call that fails.
  package var call: SystemCall
  /// The errno it fails with.
  package var error: Errno
  /// How many calls of `call` go through first.
  package var skipping: Int
  /// How many calls fail, after those (`Int.max`: every one).
  package var count: Int

  /// Calls of `call` fail with `error`, `count` times, after `skipping` of them succeed.
  package init(_ call: SystemCall, _ error: Errno, skipping: Int = 0, count: Int = .max) {
    self.call = call
    self.error = error
    self.skipping = skipping
    self.count = count
  }
}

/// Failures injected into the system calls the current thread makes while `run`'s body runs, so that a test can see
/// what a full disk (ENOSPC), a failing device (EIO) or a signal (EINTR) does to a write or a read. A plan belongs to
/// the thread that runs it: the calls of other threads, and every call outside `run`, go to the system untouched,
/// and cost one read of a thread-specific slot.
package final class FaultPlan {
  private var faults: [SystemFault]
  /// The calls that failed by this plan, in order.
  package private(set) var injected: [SystemCall] = []

  /// A plan of `faults`, checked in order: the first that matches a call and has failures left decides.
  package init(_ faults: [SystemFault]) {
    self.faults = faults
  }

  /// Runs `body` with the plan in force on this thread (nested plans: the innermost), then takes it away.
  package func run<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
    let previous = pthread_getspecific(faultPlanKey)
    pthread_setspecific(faultPlanKey, Unmanaged.passUnretained(self).toOpaque())
    defer { pthread_setspecific(faultPlanKey, previous) }
    return try body()
  }

  /// The errno `call` fails with now, or nil when it goes to the system.
  fileprivate func take(_ call: SystemCall) -> Int32? {
    for k in faults.indices where faults[k].call == call && faults[k].count > 0 {
      if faults[k].skipping > 0 {
        faults[k].skipping -= 1
        return nil
      }
      faults[k].count -= 1
      injected.append(call)
      return faults[k].error.rawValue
    }
    return nil
  }
}

/// The thread-specific slot that holds the running plan (unretained: `run` keeps it alive).
private let faultPlanKey: pthread_key_t = {
  var key = pthread_key_t()
  pthread_key_create(&key, nil)
  return key
}()

/// The errno the current thread's plan makes `call` fail with, or nil (no plan, or none for this call).
@inline(__always)
func injectedFailure(_ call: SystemCall) -> Int32? {
  guard let slot = pthread_getspecific(faultPlanKey) else { return nil }
  return Unmanaged<FaultPlan>.fromOpaque(slot).takeUnretainedValue().take(call)
}
