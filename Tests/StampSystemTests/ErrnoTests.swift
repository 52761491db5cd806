import Foundation
import Testing

@testable import StampSystem

/// `Errno`: the one place errno becomes words, and the one retry of interrupted calls.
struct ErrnoTests {
  /// glibc's strerror texts, with the first letter lowered as stampcam's messages write them.
  @Test(arguments: [
    (ENOSPC, "no space left on device"), (EIO, "input/output error"), (ENOENT, "no such file or directory"),
    (EINTR, "interrupted system call"),
  ])
  func anErrnoReadsAsTheSystemsWordsInLowerCase(code: Int32, words: String) {
    #expect(Errno(rawValue: code).description == words)
    #expect(Errno.text(code) == words)
  }

  @Test func anInterruptedCallIsCalledAgainUntilItIsNotInterrupted() throws {
    var calls = 0
    let result = try Errno.retryingInterrupts { () -> Int32 in
      calls += 1
      guard calls > 2 else {
        errno = EINTR
        return -1
      }
      return 7
    }
    #expect(result == 7)
    #expect(calls == 3)
  }

  @Test func anotherFailureIsThrownAfterOneCall() {
    var calls = 0
    #expect(throws: Errno.noSpace) {
      try Errno.retryingInterrupts { () -> Int in
        calls += 1
        errno = ENOSPC
        return -1
      }
    }
    #expect(calls == 1)
  }
}
