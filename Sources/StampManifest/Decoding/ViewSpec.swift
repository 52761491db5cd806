import StampCore

/// A decoded `view`: the screen's size in points and its pixels per point.
struct ViewSpec: Sendable {
  var size: StampSize
  var screenScale: Double
}
