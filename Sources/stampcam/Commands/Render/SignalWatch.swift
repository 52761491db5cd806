import Dispatch
import Foundation
import StampBatch
import StampSystem
import Synchronization

/// SIGINT, SIGTERM and SIGHUP: the first stops the batch from taking jobs and gives those in flight `grace`
/// seconds to finish, then stops them (they fail, leaving no file); the process then exits with 128 + the
/// signal's number (130 for SIGINT). A second signal removes the temporary files in progress and exits at once.
final class SignalWatch {
  /// Seconds the jobs in flight get to finish after the first signal.
  static let grace = 3.0
  private static let signals = [SIGINT, SIGTERM, SIGHUP]
  private let sources: [any DispatchSourceSignal]
  /// How many signals came, and the first of them.
  private let seen: Seen

  /// The signals received, behind a lock the handlers share.
  private final class Seen: Sendable {
    let state = Mutex<(count: Int, first: Int32?)>((0, nil))
  }

  init(cancellation: Cancellation, quiet: Bool) {
    let seen = Seen()
    let queue = DispatchQueue(label: "stampcam.signals")
    sources = Self.signals.map { number in
      systemSetSignalIgnored(number, true)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler {
        let (count, first) = seen.state.withLock { state in
          state.count += 1
          if state.first == nil { state.first = number }
          return (state.count, state.first ?? number)
        }
        guard count == 1 else {
          cancellation.removeTemporaryFiles()
          systemExit(ExitStatus.signal(first))
        }
        cancellation.cancel()
        let name = Self.name(number)
        if !quiet {
          Terminal.line(
            "\nstampcam: stopping (\(name)): the jobs in flight get \(Int(Self.grace)) s to finish "
              + "(again to stop at once)")
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.grace) {
          cancellation.stopJobs(because: "the job was stopped by \(name)")
        }
      }
      source.resume()
      return source
    }
    self.seen = seen
  }

  /// The signal that stopped the batch, if one did.
  var received: Int32? { seen.state.withLock { $0.first } }

  func stop() {
    for source in sources { source.cancel() }
    for number in Self.signals { systemSetSignalIgnored(number, false) }
  }

  private static func name(_ number: Int32) -> String {
    switch number {
    case SIGINT: return "SIGINT"
    case SIGTERM: return "SIGTERM"
    default: return "SIGHUP"
    }
  }
}
