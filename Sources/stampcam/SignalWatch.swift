import Dispatch
import Foundation
import StampBatch

/// SIGINT and SIGTERM: the first stops the batch from taking jobs (those in flight finish, so no output is left
/// half-written); a second one removes the temporary files in progress and exits at once with status 130.
final class SignalWatch: @unchecked Sendable {
  private var sources: [DispatchSourceSignal] = []
  private let queue = DispatchQueue(label: "stampcam.signals")

  init(cancellation: Cancellation, quiet: Bool) {
    let count = Locked(0)
    for number in [SIGINT, SIGTERM] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler {
        let seen = count.withLock { (n: inout Int) -> Int in
          n += 1
          return n
        }
        if seen == 1 {
          cancellation.cancel()
          if !quiet { Terminal.line("\nstampcam: stopping: finishing the jobs in flight (again to stop at once)") }
        } else {
          Cancellation.removeTemporaryFiles()
          exit(130)
        }
      }
      source.resume()
      sources.append(source)
    }
  }

  func stop() {
    for source in sources { source.cancel() }
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
  }
}
