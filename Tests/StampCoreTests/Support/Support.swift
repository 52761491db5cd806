@testable import StampCore

/// Whether two numbers agree to `tolerance` (absolute).
func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
  abs(a - b) <= tolerance
}

/// Whether two points agree to `tolerance` per coordinate.
func close(_ a: StampPoint, _ b: StampPoint, _ tolerance: Double = 1e-9) -> Bool {
  close(a.x, b.x, tolerance) && close(a.y, b.y, tolerance)
}

/// Whether two rectangles agree to `tolerance` per number.
func close(_ a: StampRect, _ b: StampRect, _ tolerance: Double = 1e-9) -> Bool {
  close(a.origin, b.origin, tolerance) && close(a.size.width, b.size.width, tolerance)
    && close(a.size.height, b.size.height, tolerance)
}

/// A touch event, tersely: `touch(0.1, 1, .moved, 20, 30)`.
func touch(_ t: Double, _ id: Int, _ phase: TouchPhase, _ x: Double, _ y: Double) -> TouchEvent {
  TouchEvent(t: t, id: id, phase: phase, location: StampPoint(x, y))
}

/// A square stamp whose image is `side` pixels: with no view its width in image pixels is `side`.
func square(_ id: String, at center: StampPoint, side: Double = 100, rotation: Double = 0, locked: Bool = false)
  -> StampSpec
{
  StampSpec(id: id, center: center, pixelSize: StampSize(side, side), rotation: rotation, locked: locked)
}

/// A 1000 x 1000 photo with no view (fit 1: view points are image pixels) and these stamps and gestures.
func plainScene(
  stamps: [StampSpec] = [], _ gestures: [GestureItem], settings: GestureSettings = GestureSettings()
) -> SceneSpec {
  SceneSpec(imageSize: StampSize(1000, 1000), stamps: stamps, gestures: gestures, settings: settings)
}

/// A 1000 x 800 photo on a 500 x 400 screen (fit 0.5: image pixels are view points x 2), a 100-point square stamp
/// at view (250, 200), covering view 200...300 x 150...250.
func starSession(history: SessionHistory = .all) throws -> StampSession {
  let star = StampSpec(id: "star", center: StampPoint(250, 200), width: 100, pixelSize: StampSize(64, 64))
  return try StampSession(imageSize: StampSize(1000, 800), view: StampSize(500, 400), stamps: [star], history: history)
}

/// Feeds a tap of touch `id` at view point (`x`, `y`): down at `t`, up `duration` later, each its own frame.
func feedTap(
  _ session: inout StampSession, _ t: Double, _ id: Int, _ x: Double, _ y: Double, duration: Double = 0.1
) throws {
  try session.feed([touch(t, id, .began, x, y)])
  try session.feed([touch(t + duration, id, .ended, x, y)])
}
