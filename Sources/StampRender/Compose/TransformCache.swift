import CVips
import CVipsGlue
import StampFiles
import Synchronization

/// Transformed stamps kept for reuse: when one gesture script runs over a folder of same-sized photos, every job
/// draws the same stamps at the same scale, angle and sub-pixel offset, and the resampling need be done once.
///
/// A transform is kept only when it is asked for a second time, so a batch of all-different placements pays
/// nothing but a lookup; kept layers are evicted least recently used first beyond `budget` bytes.
final class TransformCache: Sendable {
  /// Everything that decides a transformed layer's pixels.
  struct Key: Hashable {
    /// The stamp file's path, as bytes: `é.png` in NFC and in NFD are two stamps.
    var image: PathKey
    /// The decode of that file it was made from (`PreparedStamp.decode`): a stamp replaced mid-batch is a new one.
    var decode: UInt64
    var shrink: [Double]
    var geometry: [Double]
    var width: Int
    var height: Int
  }

  private struct Entry {
    var image: Image
    var bytes: Int
    var lastUse: Int
  }

  private struct State {
    var seen: Set<Key> = []
    var entries: [Key: Entry] = [:]
    var bytes = 0
    var clock = 0
    var hits = 0
  }

  private let state = Mutex(State())
  private let budget: Int
  /// How many layers were served from the cache (for tests and diagnostics).
  var hits: Int { state.withLock { $0.hits } }
  /// How many layers are kept (for tests and diagnostics).
  var kept: Int { state.withLock { $0.entries.count } }

  init(budget: Int = 64 << 20) {
    self.budget = budget
  }

  /// The layer for `key`: from the cache, or made by `make` (and kept, in memory, when seen before). A request
  /// that does not `count` (a layer drawn again within its job, strip after strip) is served from the cache but
  /// neither marks the key as seen nor keeps what it makes: only a placement repeated across jobs is worth keeping.
  /// Keeping a layer evaluates it under `control`, the job's that asked.
  func layer(_ key: Key, counts: Bool = true, control: JobControl? = nil, make: () throws -> Image) throws -> Image {
    let (cached, again) = state.withLock { state -> (Image?, Bool) in
      state.clock += 1
      if var entry = state.entries[key] {
        entry.lastUse = state.clock
        state.entries[key] = entry
        state.hits += 1
        return (entry.image, true)
      }
      guard counts else { return (nil, false) }
      let again = !state.seen.insert(key).inserted
      if state.seen.count > 4096 { state.seen.removeAll(keepingCapacity: true) }
      return (nil, again)
    }
    if let cached { return cached }
    let made = try make()
    guard again else { return made }
    let kept = try made.evaluating(under: control) {
      try made.derive("keep transformed stamp") { scv_copy_memory($0, &$1) }
    }
    let size = kept.width * kept.height * kept.bands
    guard size <= budget / 4 else { return kept }
    state.withLock { state in
      state.entries[key] = Entry(image: kept, bytes: size, lastUse: state.clock)
      state.bytes += size
      while state.bytes > budget, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
        state.bytes -= oldest.value.bytes
        state.entries[oldest.key] = nil
      }
    }
    return kept
  }
}
