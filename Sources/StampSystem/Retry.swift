#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

extension Errno {
  /// `call`'s result, calling again for as long as it fails with EINTR (a signal arrived meanwhile: the signal
  /// handlers stampcam installs do not restart calls); `failed` tells a failure from a result. The one retry loop of
  /// the system calls.
  package static func retryingInterrupts<Result>(_ call: () -> Result, failed: (Result) -> Bool) -> Result {
    while true {
      let result = call()
      if !failed(result) || errno != EINTR { return result }
    }
  }

  /// `call`'s result, called again while it is interrupted (EINTR); errno as the error when it returns -1.
  package static func retryingInterrupts<Result: FixedWidthInteger>(_ call: () -> Result) throws(Errno) -> Result {
    let result = retryingInterrupts(call, failed: { $0 == -1 })
    guard result != -1 else { throw Errno.current }
    return result
  }
}
