import StampCore
import StampFiles

/// What to draw for one output: a base photo and stamps placed in its image space.
package struct RenderPlan: Sendable, Hashable {
  /// One stamp to draw.
  package struct Stamp: Sendable, Hashable {
    /// The stamp image's path.
    package var image: String
    /// Where and how it lands, in image space.
    package var placement: PlacedStamp

    /// Creates a planned stamp.
    package init(image: String, placement: PlacedStamp) {
      self.image = image
      self.placement = placement
    }
  }

  /// The base photo's path.
  package var base: String
  /// Stamps in drawing order (later on top).
  package var stamps: [Stamp]
  /// The base photo, opened once for the whole job (its header was read from it); nil: opened from `base` by
  /// each render.
  package var baseFile: InputFile?

  /// Creates a plan.
  package init(base: String, stamps: [Stamp]) {
    self.base = base
    self.stamps = stamps
  }
}
