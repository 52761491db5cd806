/// The bounds that keep a hostile or broken manifest, photo or stamp from exhausting memory or time: one value for
/// the whole product, so the decoder, the checks, the renderer and the recorder refuse at the same numbers.
public struct Limits: Sendable, Hashable {
  /// The largest JSON document, or JSON Lines line, in bytes (default 64 MiB).
  public var maxBytes: Int
  /// The deepest nesting of arrays and objects (default 64; a valid manifest needs 6).
  public var maxDepth: Int
  /// The most stamps in one job (default 1,000).
  public var maxStamps: Int
  /// The most touch events in one job, counting those that high-level gestures turn into (default 1,000,000).
  public var maxTouchEvents: Int
  /// The most diagnostics kept by `validate`; the rest are counted in a last one (default 1,000).
  public var maxDiagnostics: Int
  /// The most pixels a photo or a stamp may have, refused from its header before any decoding (default
  /// 100,000,000; `--max-pixels`).
  public var maxPixels: Int
  /// The most pixels a `viewOutput` may have: the view's size times its screen scale (default: `maxPixels`'s
  /// default, the photos' limit).
  public var maxViewPixels: Int
  /// The most components an output path may have, its folders and its name (default 64): `a/b/c.jpg` has 3. Each
  /// folder is one made under `--out`; no batch needs them nested deeper.
  public var maxOutputComponents: Int

  /// The smallest side of a view (the screen the gestures are made on), in points: a manifest's `view` and the
  /// recorder's `--view` refuse less. Two fingers at the default slops (10 points) fit on such a screen, and the
  /// recorder's page has a picture to draw; nothing smaller is a screen anyone touches. (The view output itself is
  /// drawn at any size down to one pixel.)
  public static let minViewSide: Double = 16

  /// The photos' default pixel limit, which the view outputs' default follows.
  public static let defaultMaxPixels = 100_000_000

  /// Creates limits; the defaults suit every manifest a person or a pipeline writes.
  public init(
    maxBytes: Int = 64 << 20, maxDepth: Int = 64, maxStamps: Int = 1000, maxTouchEvents: Int = 1_000_000,
    maxDiagnostics: Int = 1000, maxPixels: Int = defaultMaxPixels, maxViewPixels: Int = defaultMaxPixels,
    maxOutputComponents: Int = 64
  ) {
    self.maxBytes = maxBytes
    self.maxDepth = maxDepth
    self.maxStamps = maxStamps
    self.maxTouchEvents = maxTouchEvents
    self.maxDiagnostics = maxDiagnostics
    self.maxPixels = maxPixels
    self.maxViewPixels = maxViewPixels
    self.maxOutputComponents = maxOutputComponents
  }
}
