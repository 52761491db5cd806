/// Where one finger went, from touch-down to lift, in image pixels.
public struct TouchTrace: Sendable, Hashable {
  /// The gesture item the finger belongs to.
  public var item: Int
  /// The touch's id within its item.
  public var id: Int
  /// Its positions in order, the first where it touched down.
  public var points: [StampPoint]
  /// True when it lifted (ended); false when it was cancelled or still down at the end of its item.
  public var lifted: Bool

  /// Creates a trace.
  public init(item: Int, id: Int, points: [StampPoint], lifted: Bool) {
    self.item = item
    self.id = id
    self.points = points
    self.lifted = lifted
  }
}
