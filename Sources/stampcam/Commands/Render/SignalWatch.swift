import Dispatch
import Foundation
import StampBatch

/// SIGINT, SIGTERM and SIGHUP: the first stops the batch from taking jobs and gives those in flight `grace`
/// seconds to finish, then stops them (they fail, leaving no file); the process then exits with 128 + the
/// signal's number (130 for SIGINT). A second signal removes the temporary files in progress and exits at once.
final class SignalWatch: @unchecked Sendable {
  /// Seconds the jobs in flight get to finish after the first signal.
  static let grace = 3.0
  private static let signals = [SIGINT, SIGTERM, SIGHUP]
  private var sources: [DispatchSourceSignal] = []
  private let queue = DispatchQueue(label: "stampcam.signals")
  private let first = Locked<Int32?>(nil)

  init(cancellation: Cancellation, quiet: Bool) {
    let count = Locked(0)
    for number in Self.signals {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { [first] in
        let seen = count.withLock { (n: inout Int) -> Int in
          n += 1
          return n
        }
        if seen == 1 {
          first.withLock { $0 = number }
          cancellation.cancel()
          let name = Self.name(number)
          if !quiet {
            Terminal.line(
              "\nstampcam: stopping (\(name)): the jobs in flight get \(Int(Self.grace)) s to finish (again to stop at once)"
            )
          }
          DispatchQueue.global().asyncAfter(deadline: .now() + Self.grace) {
            cancellation.stopJobs(because: "the job was stopped by \(name)")
          }
        } else {
          Cancellation.removeTemporaryFiles()
          exit(128 + (first.withLock { $0 } ?? number))
        }
      }
      source.resume()
      sources.append(source)
    }
  }

  /// The signal that stopped the batch, if one did.
  var received: Int32? { first.withLock { $0 } }

  func stop() {
    for source in sources { source.cancel() }
    for number in Self.signals { signal(number, SIG_DFL) }
  }

  private static func name(_ number: Int32) -> String {
    switch number {
    case SIGINT: return "SIGINT"
    case SIGTERM: return "SIGTERM"
    default: return "SIGHUP"
    }
  }
}
