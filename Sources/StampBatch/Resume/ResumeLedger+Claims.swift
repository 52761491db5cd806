import Foundation
import StampFiles
import StampManifest
import StampSystem

extension ResumeLedger {
  /// A job's hold on its outputs: while it lives, no other job, in this process or another (a run of another
  /// manifest or shard into the same `--out`), can claim any of them.
  struct Claim {
    fileprivate let locks: [FileLock]
    /// Seconds spent waiting for another run to let go of an output first (0: none was held).
    let waited: Double

    /// Gives the outputs up.
    func release() {
      for lock in locks { lock.release() }
    }
  }

  /// How long a claim another run holds is waited for, and what ends the wait early.
  struct Wait {
    /// The most seconds to wait for, in all.
    var seconds: Double
    /// True once the run stops taking jobs (a signal): the wait ends at once.
    var cancelled: @Sendable () -> Bool = { false }

    /// The pauses between tries: 5 ms, doubling to a quarter of a second.
    static let firstPause = 0.005
    static let longestPause = 0.25
  }

  /// Claims `outputs` (relative paths) for one job: a lock file per output in `.stampcam`, locked with `flock`,
  /// so two runs writing one output at once never both write it, and a record is forgotten, its outputs made and
  /// renamed, and the record written, all under the claim. An output another run holds is waited for, up to `wait`
  /// (retried with growing pauses), and then claimed: the caller then finds that run's record (usually: up to date).
  /// Held past the wait (or with no wait), the job fails, saying so, and writes nothing.
  func claim(_ outputs: [String], waiting wait: Wait? = nil) throws -> Claim {
    var locks: [FileLock] = []
    // Those taken are given up again when one cannot be.
    var claimed = false
    defer { if !claimed { for lock in locks { lock.release() } } }
    // The same file named with doubled slashes is the same output; names are compared as bytes. Claimed in the
    // order of the lock names, the same in every run: two jobs that each hold an output the other waits for would
    // otherwise wait each other out.
    var names: [String: String] = [:]
    for output in outputs {
      let name = Digest(PathRules.components(output).joined(separator: "/")).hex + ".lock"
      if names[name] == nil { names[name] = output }
    }
    let start = DispatchTime.now()
    var refused = false
    func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 }
    for (name, output) in names.sorted(by: { $0.key < $1.key }) {
      var pause = Wait.firstPause
      while true {
        do {
          locks.append(try FileLock.claim(name, in: folder))
          break
        } catch .held {
          let waited = elapsed()
          guard let wait, waited < wait.seconds, !wait.cancelled() else {
            throw BatchError.unsafeOutput(
              job: "", path: output,
              reason: "another stampcam run is writing it at this moment (another manifest or shard with this "
                + "--out)\(waited >= 0.5 ? ", still after \(Self.seconds(waited)) s of waiting" : ""); "
                + "not writing it twice")
          }
          refused = true
          // Between 1 ms and a quarter of a second: the conversion cannot trap.
          systemSleep(microseconds: UInt32((min(pause, max(wait.seconds - waited, 0.001)) * 1e6).rounded()))
          pause = min(pause * 2, Wait.longestPause)
        } catch .failed(let reason) {
          throw BatchError.unsafeOutput(
            job: "", path: output, reason: "cannot claim it (\(Self.folderName)/\(name): \(reason))")
        }
      }
    }
    claimed = true
    return Claim(locks: locks, waited: refused ? elapsed() : 0)
  }

  /// `x` seconds in words: whole seconds, or tenths under ten.
  static func seconds(_ x: Double) -> String {
    x >= 10 ? String(Int(min(x, 1e9).rounded())) : String((x * 10).rounded() / 10)
  }
}
