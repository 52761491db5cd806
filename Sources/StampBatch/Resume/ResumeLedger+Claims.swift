import StampFiles
import StampManifest

extension ResumeLedger {
  /// A job's hold on its outputs: while it lives, no other job, in this process or another (a run of another
  /// manifest or shard into the same `--out`), can claim any of them.
  struct Claim {
    fileprivate let locks: [FileLock]

    /// Gives the outputs up.
    func release() {
      for lock in locks { lock.release() }
    }
  }

  /// Claims `outputs` (relative paths) for one job: a lock file per output in `.stampcam`, locked with `flock`,
  /// so two runs writing one output at once never both write it (the second fails that job and says why), and a
  /// record is forgotten, its outputs made and renamed, and the record written, all under the claim.
  func claim(_ outputs: [String]) throws -> Claim {
    var locks: [FileLock] = []
    // Those taken are given up again when one cannot be.
    defer { if locks.count < outputs.count { Claim(locks: locks).release() } }
    for output in outputs {
      // The same file named with doubled slashes is the same output; names are compared as bytes.
      let name = Digest(PathRules.components(output).joined(separator: "/")).hex + ".lock"
      do {
        locks.append(try FileLock.claim(name, in: folder))
      } catch .held {
        throw BatchError.unsafeOutput(
          job: "", path: output,
          reason: "another stampcam run is writing it at this moment (another manifest or shard with this --out); "
            + "not writing it twice")
      } catch .failed(let reason) {
        throw BatchError.unsafeOutput(
          job: "", path: output, reason: "cannot claim it (\(Self.folderName)/\(name): \(reason))")
      }
    }
    return Claim(locks: locks)
  }
}
