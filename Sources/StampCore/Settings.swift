/// How a double tap zooms the viewport.
public enum DoubleTapMode: String, Sendable, CaseIterable {
  /// Seed 004: at the minimum zoom go to the maximum centred on the tap, otherwise back to the minimum.
  case toggle
  /// Seed 000 (corrected): multiply the zoom by `zoomStep`, centred on the tap.
  case step
}

/// Every threshold of the gesture engine, with the design's defaults.
public struct GestureSettings: Sendable, Hashable {
  /// A stamp's scale is clamped to this closed range at every step (seed 002: 0.5...2.0).
  public var scaleRange: ClosedRange<Double> = 0.5...2.0
  /// The viewport's zoom range (seed 004: 1...4).
  public var zoomRange: ClosedRange<Double> = 1...4
  /// What a double tap does.
  public var doubleTap: DoubleTapMode = .toggle
  /// The zoom factor of a double tap in `step` mode and of a two-finger tap (seed 000's ZOOM_STEP).
  public var zoomStep: Double = 1.5
  /// Longest a tap may last, touch-down to touch-up, in seconds; exactly this long is still a tap.
  public var tapMaxDuration: Double = 0.5
  /// Farthest a tapping finger may move from where it landed, in view points: exactly this far is still a tap, past
  /// it the touch is a drag; 0 means the finger must not move at all.
  public var tapSlop: Double = 10
  /// A single tap fires this long after its touch ends unless a second touch begins by then, near it (seed 000:
  /// 0.35 s); one beginning exactly this long after still counts.
  public var doubleTapInterval: Double = 0.35
  /// The second tap of a double tap must begin within this distance of the first (at most), in view points.
  public var doubleTapDistance: Double = 40
  /// Output JPEG/WebP quality; nil means the default (90) or a lossless path where one applies.
  public var quality: Int? = nil

  /// The design's defaults.
  public init() {}
}
