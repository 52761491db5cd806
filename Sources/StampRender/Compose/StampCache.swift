import CVips
import CVipsGlue
import Foundation
import StampCore
import StampFiles
import StampSystem
import Synchronization

/// Decodes each stamp file once and hands the same pixels to every job, keeping at most `budget` bytes of decoded
/// stamps: past it, the least recently used are dropped (a job drawing one still holds it) and decoded again if
/// asked for later.
///
/// Concurrent requests for one path decode it once: the first caller decodes while the others wait on the lock.
/// Each request checks the file's version first (`FileVersion`: identity, size, modification and change times): a
/// stamp replaced or rewritten since it was decoded, or one missing then that exists now, is decoded again.
package final class StampCache: Sendable {
  private struct Entry {
    /// The file's version seen just before it was decoded (nil: there was no file).
    var version: FileVersion?
    var result: Result<PreparedStamp, RenderError>
    var bytes: Int
    var lastUse: Int
  }

  /// A file, and the shrink it is decoded at.
  private struct Key: Hashable {
    var path: PathKey
    var shrink: Int
  }

  private struct State {
    /// Keyed by the path's bytes (`é.png` in NFC and in NFD are two files) and the shrink.
    var entries: [Key: Entry] = [:]
    var bytes = 0
    var clock = 0
    /// Each stamp's header, with the file's version seen just before it was read (at most `headerLimit`).
    var headers: [PathKey: (version: FileVersion, header: ImageHeader)] = [:]
  }

  /// Headers kept, at most: a batch naming more stamp files reads the others' again.
  private static let headerLimit = 4096

  private let state = Mutex(State())
  /// The bytes of decoded stamps kept between jobs (`--stamp-cache-mb`).
  package let budget: Int
  private let maxPixels: Int
  /// Which loaders stamps may use, how damaged they may be, and where they may lie.
  package let policy: InputPolicy
  /// Transformed stamps kept for reuse across jobs.
  let transforms = TransformCache()

  /// Creates an empty cache keeping up to `budget` bytes; stamps over `maxPixels` pixels are refused.
  package init(maxPixels: Int = Limits().maxPixels, policy: InputPolicy = InputPolicy(), budget: Int = 128 << 20) {
    self.maxPixels = maxPixels
    self.policy = policy
    self.budget = budget
  }

  /// The bytes of decoded stamps held now.
  package var heldBytes: Int {
    state.withLock { $0.bytes }
  }

  /// The number of stamp files held now (decoded, or known to fail).
  package var count: Int {
    state.withLock { $0.entries.count }
  }

  /// True when `path` is held (for tests).
  func holds(_ path: String, shrink: Int = 1) -> Bool {
    state.withLock { $0.entries[Key(path: PathKey(path), shrink: shrink)] != nil }
  }

  /// True when `path`'s header is held (for tests).
  func holdsHeader(_ path: String) -> Bool {
    state.withLock { $0.headers[PathKey(path)] != nil }
  }

  /// The stamp's upright pixel size, from its header (its pixels are decoded only to be drawn, at the size drawn).
  package func pixelSize(of path: String) throws -> StampSize {
    try header(of: path).uprightSize
  }

  /// The stamp's header, refused past `maxPixels`.
  /// Read once for each version of the file (twice a stamp a job otherwise: the replay and the drawing each ask, about
  /// 0.15 ms a read); a stamp replaced or rewritten since is read again, and a failure is never kept.
  func header(of path: String) throws -> ImageHeader {
    let key = PathKey(path)
    // Seen before the file is opened: a change after this look shows as another version next time.
    let version = FileVersion(path: path)
    do {
      let header: ImageHeader
      if let version, let known = state.withLock({ $0.headers[key] }), known.version == version {
        header = known.header
      } else {
        header = try ImageHeader.read(InputFile.open(path, root: policy.root), policy: policy)
        if let version {
          state.withLock { state in
            if state.headers.count >= Self.headerLimit { state.headers.removeAll() }
            state.headers[key] = (version, header)
          }
        }
      }
      guard header.width * header.height <= maxPixels else {
        throw RenderError.tooLarge(path: path, width: header.width, height: header.height, limit: maxPixels)
      }
      return header
    } catch {
      throw (RenderError(error) ?? .unreadable(path: path, message: "\(error)")).diagnosed(reading: path)
    }
  }

  /// The stamp decoded with each pixel averaging `shrink` x `shrink` of the file's (see `StampShrink`), a decode
  /// stopped by `control` (the job's that asked; nil: nothing stops it).
  func stamp(_ path: String, shrink: Int = 1, control: JobControl? = nil) throws -> PreparedStamp {
    let key = Key(path: PathKey(path), shrink: shrink)
    return try state.withLock { state in
      state.clock += 1
      // Seen before the decode opens the file: a change after this look shows as another version next time.
      let version = FileVersion(path: path)
      if var entry = state.entries[key] {
        guard entry.version != version else {
          entry.lastUse = state.clock
          state.entries[key] = entry
          return entry.result
        }
        state.bytes -= entry.bytes
        state.entries[key] = nil
      }
      // Told by decoding the stamp alone (see `RenderError.diagnosed`): the error is kept for every job that uses it.
      let result = Result {
        try Self.prepare(path, shrink: shrink, maxPixels: maxPixels, policy: policy, control: control)
      }.mapError {
        (RenderError($0) ?? .unreadable(path: path, message: "\($0)")).diagnosed(reading: path)
      }
      // A stopped job's failure says nothing of the stamp: the next job decodes it again.
      if case .failure(.stopped) = result { return result }
      // A failure is remembered too (a missing stamp fails every job naming it), for the room its message takes.
      let size = (try? result.get()).map { $0.image.width * $0.image.height * $0.image.bands } ?? 1024
      state.entries[key] = Entry(version: version, result: result, bytes: size, lastUse: state.clock)
      state.bytes += size
      while state.bytes > budget, state.entries.count > 1,
        let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
      {
        state.bytes -= oldest.value.bytes
        state.entries[oldest.key] = nil
      }
      return result
    }.get()
  }

  private static func prepare(
    _ path: String, shrink: Int, maxPixels: Int, policy: InputPolicy, control: JobControl?
  ) throws
    -> PreparedStamp
  {
    // Shrunk, the file is read top to bottom once and only the small image is held; rotated once small.
    let file = try Image.open(InputFile.open(path, root: policy.root), sequential: shrink > 1, policy: policy)
    guard file.width * file.height <= maxPixels else {
      throw RenderError.tooLarge(path: path, width: file.width, height: file.height, limit: maxPixels)
    }
    let orientation = file.orientation
    let header = ImageHeader(width: file.width, height: file.height, orientation: orientation)
    // A JPEG whose sides the factor's part up to 8 divides is decoded that much smaller by libjpeg (each pixel then
    // covers exactly j x j of the file's), the rest by the box below.
    let jpeg = StampShrink.jpegPart(of: shrink, width: file.width, height: file.height)
    let small =
      jpeg > 1
      ? try Image.open(InputFile.open(path, root: policy.root), sequential: true, policy: policy, jpegShrink: jpeg)
      : file
    let loaded = small.width == file.width ? 1 : jpeg
    guard small.width * loaded == file.width, small.height * loaded == file.height else {
      throw RenderError.operation(path: path, operation: "decode", message: "the file changed during the job")
    }
    let upright =
      orientation == 1 || shrink > 1 ? small : try small.derive("autorotate") { scv_autorot($0, &$1) }
    let srgb = try upright.derive("colour conversion") { scv_to_srgb($0, &$1) }
    let withAlpha = try srgb.derive("alpha") { scv_ensure_alpha($0, &$1) }
    var float = try withAlpha.derive("premultiply") { scv_premultiply($0, &$1) }
    if shrink / loaded > 1 {
      let (pad, box) = (StampShrink.padsAtStart(orientation: orientation), Int32(shrink / loaded))
      float = try float.derive("shrink") { scv_box_shrink($0, &$1, box, pad.left ? 1 : 0, pad.top ? 1 : 0) }
    }
    // Premultiplied 8-bit: resampling uchar is several times cheaper than float, and the rounding of a
    // premultiplied value moves the blended result by at most half a level.
    let premultiplied = try float.derive("cast") { scv_cast($0, &$1, VIPS_FORMAT_UCHAR) }
    var decoded = try premultiplied.evaluating(under: control) {
      try premultiplied.derive("decode") { scv_copy_memory($0, &$1) }
    }
    if shrink > 1, orientation != 1 {
      let stored = decoded
      decoded = try stored.derive("autorotate") { scv_autorot($0, &$1) }
      decoded = try decoded.evaluating(under: control) { try decoded.derive("decode") { scv_copy_memory($0, &$1) } }
    }
    let alpha = try decoded.derive("alpha") { scv_extract_bands($0, &$1, 3, 1) }.pixels(under: control)
    return PreparedStamp(
      image: decoded, content: PreparedStamp.bounds(ofNonZero: alpha, width: decoded.width, height: decoded.height),
      pixelSize: header.uprightSize, shrink: shrink)
  }
}
