/// A stamp's state in image space: what the renderer draws.
public struct PlacedStamp: Sendable, Hashable {
  /// The stamp's id.
  public var id: String
  /// Its centre in image pixels (continuous coordinates: pixel (i, j) covers [i, i+1) x [j, j+1)).
  public var center: StampPoint
  /// Its size in image pixels before `scale`.
  public var size: StampSize
  /// Scale factor, within the job's scale range once gestures have acted.
  public var scale: Double
  /// Rotation in degrees, clockwise positive.
  public var rotation: Double

  /// Creates a placed stamp.
  public init(id: String, center: StampPoint, size: StampSize, scale: Double, rotation: Double) {
    self.id = id
    self.center = center
    self.size = size
    self.scale = scale
    self.rotation = rotation
  }
}

/// The kinds of gesture the recognizers report.
public enum GestureKind: String, Sendable, CaseIterable {
  /// One finger down and up, with no second tap within `doubleTapInterval`; it changes nothing.
  case tap
  /// Two taps close in time and place: zooms the viewport (`DoubleTapMode`).
  case doubleTap
  /// Two fingers tapping together: zooms the viewport out by `zoomStep`.
  case twoFingerTap
  /// Two fingers spreading or turning: scales and rotates a stamp, or zooms the viewport.
  case pinch
  /// One finger moving: moves a stamp, or scrolls the viewport.
  case drag
}

/// A gesture the recognizers fired.
public struct RecognizedGesture: Sendable, Hashable {
  /// What was recognized.
  public var kind: GestureKind
  /// When, in seconds on the job's clock.
  public var t: Double
  /// Where, in image pixels.
  public var at: StampPoint
  /// A stamp id, or nil for the viewport.
  public var target: String?

  /// Creates a recognized gesture.
  public init(kind: GestureKind, t: Double, at: StampPoint, target: String?) {
    self.kind = kind
    self.t = t
    self.at = at
    self.target = target
  }
}

/// The viewport at the end of a replay.
public struct ViewportState: Sendable, Hashable {
  /// The zoom factor (the scroll view's zoomScale).
  public var zoom: Double
  /// The whole view mapped into image pixels; reaches past the photo where the view shows letterbox bars.
  public var visible: StampRect
  /// The view's size in points.
  public var viewSize: StampSize

  /// Creates a viewport state.
  public init(zoom: Double, visible: StampRect, viewSize: StampSize) {
    self.zoom = zoom
    self.visible = visible
    self.viewSize = viewSize
  }
}

/// The outcome of replaying a job's gestures.
public struct SceneResult: Sendable, Hashable {
  /// Final stamps in image space, in drawing order.
  public var stamps: [PlacedStamp]
  /// The final viewport.
  public var viewport: ViewportState
  /// Every gesture recognized, in order.
  public var gestures: [RecognizedGesture]

  /// Creates a scene result.
  public init(stamps: [PlacedStamp], viewport: ViewportState, gestures: [RecognizedGesture]) {
    self.stamps = stamps
    self.viewport = viewport
    self.gestures = gestures
  }
}
