import CVips
import CVipsShim
import Foundation

/// Transformed stamps kept for reuse: when one gesture script runs over a folder of same-sized photos, every job
/// draws the same stamps at the same scale, angle and sub-pixel offset, and the resampling need be done once.
///
/// A transform is kept only when it is asked for a second time, so a batch of all-different placements pays
/// nothing but a lookup; kept layers are evicted least recently used first beyond `budget` bytes.
final class TransformCache: @unchecked Sendable {
  /// Everything that decides a transformed layer's pixels.
  struct Key: Hashable {
    var image: String
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

  private let lock = NSLock()
  private var seen: Set<Key> = []
  private var entries: [Key: Entry] = [:]
  private var bytes = 0
  private var clock = 0
  private let budget: Int
  /// How many layers were served from the cache (for tests and diagnostics).
  private(set) var hits = 0

  init(budget: Int = 64 << 20) {
    self.budget = budget
  }

  /// The layer for `key`: from the cache, or made by `make` (and kept, in memory, when seen before).
  func layer(_ key: Key, make: () throws -> Image) throws -> Image {
    lock.lock()
    clock += 1
    if var entry = entries[key] {
      entry.lastUse = clock
      entries[key] = entry
      hits += 1
      lock.unlock()
      return entry.image
    }
    let again = !seen.insert(key).inserted
    if seen.count > 4096 { seen.removeAll(keepingCapacity: true) }
    lock.unlock()
    let made = try make()
    guard again else { return made }
    let kept = try made.evaluating { try made.derive("keep transformed stamp") { scv_copy_memory($0, &$1) } }
    let size = kept.width * kept.height * kept.bands
    guard size <= budget / 4 else { return kept }
    lock.lock()
    defer { lock.unlock() }
    entries[key] = Entry(image: kept, bytes: size, lastUse: clock)
    bytes += size
    while bytes > budget, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
      bytes -= oldest.value.bytes
      entries[oldest.key] = nil
    }
    return kept
  }
}
