/// A stamp as the manifest places it, before any gesture: in view points (image pixels when the job has no view).
public struct StampSpec: Sendable, Hashable {
  /// The stamp's id, unique within its job.
  public var id: String
  /// Where the stamp's centre is, in view points.
  public var center: StampPoint
  /// Its displayed width in view points before `scale`; nil means the stamp image's pixel width.
  public var width: Double?
  /// The stamp image's size in pixels (read from its header); gives the aspect ratio.
  public var pixelSize: StampSize
  /// Initial scale factor.
  public var scale: Double
  /// Initial rotation in degrees, clockwise positive.
  public var rotation: Double
  /// A locked stamp ignores gestures (as a transformable view switched off: touches land on it and do nothing).
  public var locked: Bool

  /// Creates a stamp spec.
  public init(
    id: String, center: StampPoint, width: Double? = nil, pixelSize: StampSize, scale: Double = 1, rotation: Double = 0,
    locked: Bool = false
  ) {
    self.id = id
    self.center = center
    self.width = width
    self.pixelSize = pixelSize
    self.scale = scale
    self.rotation = rotation
    self.locked = locked
  }
}

/// What a high-level gesture acts on: a stamp (by id) or a point in view points.
public enum GestureTarget: Sendable, Hashable {
  /// The stamp with this id, where it is when the gesture begins.
  case stamp(String)
  /// A point in view points.
  case point(StampPoint)
}

/// A high-level two-finger pinch/rotate.
public struct PinchItem: Sendable, Hashable {
  /// The stamp whose centre the fingers surround, or a view point.
  public var target: GestureTarget
  /// The ratio of final to initial finger distance.
  public var scale: Double
  /// The finger line's turn in degrees, clockwise positive.
  public var rotation: Double
  /// Seconds from touch-down to lift.
  public var duration: Double
  /// Number of move frames.
  public var steps: Int

  /// Creates a pinch item.
  public init(target: GestureTarget, scale: Double = 1, rotation: Double = 0, duration: Double = 0.5, steps: Int = 30) {
    self.target = target
    self.scale = scale
    self.rotation = rotation
    self.duration = duration
    self.steps = steps
  }
}

/// A high-level one-finger drag.
public struct DragItem: Sendable, Hashable {
  /// Where the finger starts: a stamp's centre or a view point.
  public var from: GestureTarget
  /// The finger's whole motion, in view points.
  public var by: StampPoint
  /// Seconds from touch-down to lift.
  public var duration: Double
  /// Number of move frames.
  public var steps: Int

  /// Creates a drag item.
  public init(from: GestureTarget, by: StampPoint, duration: Double = 0.5, steps: Int = 20) {
    self.from = from
    self.by = by
    self.duration = duration
    self.steps = steps
  }
}

/// One item of a job's gesture script; items play in order on one clock, 1 s apart.
public enum GestureItem: Sendable, Hashable {
  /// A recorded trace; `t` is relative to the item's start.
  case touches([TouchEvent])
  /// A single tap at a view point.
  case tap(StampPoint)
  /// Two taps at a view point.
  case doubleTap(StampPoint)
  /// Two fingers tapping together about a view point.
  case twoFingerTap(StampPoint)
  /// A pinch/rotate.
  case pinch(PinchItem)
  /// A drag.
  case drag(DragItem)
}

/// Everything the gesture engine needs for one job; no file names, no pixels.
public struct SceneSpec: Sendable, Hashable {
  /// The base photo's size in image pixels, upright (after EXIF orientation).
  public var imageSize: StampSize
  /// The screen the gestures were made on, in points; nil means the image itself (fit 1, zoom 1).
  public var view: StampSize?
  /// The stamps in drawing order (later ones on top).
  public var stamps: [StampSpec]
  /// The gesture script.
  public var gestures: [GestureItem]
  /// Thresholds.
  public var settings: GestureSettings

  /// Creates a scene spec.
  public init(
    imageSize: StampSize, view: StampSize? = nil, stamps: [StampSpec] = [], gestures: [GestureItem] = [],
    settings: GestureSettings = GestureSettings()
  ) {
    self.imageSize = imageSize
    self.view = view
    self.stamps = stamps
    self.gestures = gestures
    self.settings = settings
  }
}
