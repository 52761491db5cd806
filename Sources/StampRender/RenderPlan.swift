import StampCore

/// What to draw for one output: a base photo and stamps placed in its image space.
public struct RenderPlan: Sendable, Hashable {
  /// One stamp to draw.
  public struct Stamp: Sendable, Hashable {
    /// The stamp image's path.
    public var image: String
    /// Where and how it lands, in image space.
    public var placement: PlacedStamp

    /// Creates a planned stamp.
    public init(image: String, placement: PlacedStamp) {
      self.image = image
      self.placement = placement
    }
  }

  /// The base photo's path.
  public var base: String
  /// Stamps in drawing order (later on top).
  public var stamps: [Stamp]
  /// The base photo, opened once for the whole job (its header was read from it); nil: opened from `base` by
  /// each render.
  public var baseFile: InputFile?

  /// Creates a plan.
  public init(base: String, stamps: [Stamp]) {
    self.base = base
    self.stamps = stamps
  }
}
