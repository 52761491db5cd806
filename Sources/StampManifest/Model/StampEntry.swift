import StampCore

/// A stamp as the manifest places it, before any gesture; positions in view points (image pixels without a view).
public struct StampEntry: Sendable, Hashable {
  /// Unique within its job; gestures name it.
  public var id: String
  /// The stamp image's path, resolved against the manifest's folder.
  public var image: String
  /// Where its centre is (unused when `photoCenter` is given).
  public var center: StampPoint
  /// Where its centre is in the photo's own terms: fractions of the upright photo's width and height ([0.5, 0.5]
  /// is the photo's middle on any photo), in place of `center`; turned into view points as the screen first shows
  /// the photo.
  public var photoCenter: StampPoint?
  /// Its displayed width before `scale` as a fraction of the upright photo's width, in place of `width`.
  public var photoWidth: Double?
  /// Displayed width before `scale`; nil means the image's pixel width.
  public var width: Double?
  /// Initial scale factor.
  public var scale: Double
  /// Initial rotation in degrees, clockwise positive.
  public var rotation: Double
  /// A locked stamp ignores gestures.
  public var locked: Bool

  /// Creates a stamp entry with the manifest's defaults.
  public init(
    id: String, image: String, center: StampPoint, width: Double? = nil, scale: Double = 1, rotation: Double = 0,
    locked: Bool = false
  ) {
    self.id = id
    self.image = image
    self.center = center
    self.width = width
    self.scale = scale
    self.rotation = rotation
    self.locked = locked
  }
}
