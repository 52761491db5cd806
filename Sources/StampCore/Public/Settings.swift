/// How a double tap zooms the viewport.
public enum DoubleTapMode: String, Sendable, CaseIterable {
  /// An image viewer's double tap: at the minimum zoom go to the maximum centred on the tap, otherwise back to the minimum.
  case toggle
  /// Multiply the zoom by `zoomStep`, centred on the tap.
  case step
}

/// Every threshold of the gesture engine, with the design's defaults.
public struct GestureSettings: Sendable, Hashable {
  /// A stamp's scale is clamped to this closed range at every step.
  public var scaleRange: ClosedRange<Double> = 0.5...2.0
  /// The viewport's zoom range.
  public var zoomRange: ClosedRange<Double> = 1...4
  /// What a double tap does.
  public var doubleTap: DoubleTapMode = .toggle
  /// The zoom factor of a double tap in `step` mode and of a two-finger tap.
  public var zoomStep: Double = 1.5
  /// Longest a tap may last, touch-down to touch-up, in seconds; exactly this long is still a tap.
  public var tapMaxDuration: Double = 0.5
  /// Farthest a tapping finger may move from where it landed, in view points: exactly this far is still a tap, past
  /// it the touch is a drag; 0 means the finger must not move at all.
  public var tapSlop: Double = 10
  /// How far a finger of a two-finger touch may move from where it was when the pair formed before the pair
  /// pinches, in view points; exactly this far still does not, and 0 means any motion pinches. Until then the
  /// fingers change nothing (a two-finger tap's jitter moves no stamp); once one passes it, the pinch catches up on
  /// every step since the pair formed, so none of its motion is lost.
  ///
  /// A finger-motion threshold rather than a span or angle one: a span threshold (Android's ScaleGestureDetector
  /// starts after a span change of 2 x its 8 dp touch slop = 16 dp) never starts a pure rotation, whose span stays
  /// constant, and an angle threshold (Hammer's rotate `threshold`, degrees) means a different finger motion at each
  /// span: the same 6-point jitter turns fingers 40 points apart by up to atan(12 / 40) = 17 degrees but fingers
  /// 200 apart by 3.4. Measuring each finger treats pinch, rotation and a two-finger pan alike, in the unit of the
  /// tap slop, as UIKit's pinch and rotation recognizers begin "when two touches have moved enough". The default,
  /// 10 points, is the tap slop: real two-finger taps move each finger 2 to 6 points (4 on a 3M panel with resting
  /// fingers), inside it; a symmetric pinch of fingers 100 points apart starts just past x1.2 (each finger 10 out,
  /// a span change of 20, near Android's 16).
  public var pinchSlop: Double = 10
  /// A single tap fires this long after its touch ends unless a second touch begins by then, near it; one beginning exactly this long after still counts.
  public var doubleTapInterval: Double = 0.35
  /// The second tap of a double tap must begin within this distance of the first (at most), in view points.
  public var doubleTapDistance: Double = 40
  /// Whether a pinch on a stamp also moves it with the fingers: false (the default) keeps the stamp's centre where
  /// it is while it scales and turns; true moves it, besides, by the motion of the fingers' midpoint (converted to
  /// image pixels as a drag's motion is), as sticker apps do. Either way the stamp scales and turns about its centre.
  public var pinchMoves = false
  /// Output quality (JPEG, WebP, AVIF, HEIC, JPEG XL); nil means the default (90) or a lossless path where one applies.
  public var quality: Int? = nil

  /// The design's defaults.
  public init() {}
}
