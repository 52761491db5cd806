/// The checks every synthesized gesture makes: a stamp a finger can reach, timing within bounds, fields in range.
extension TouchSynthesizer {
  /// Where a finger touches stamp `id`: its centre on the screen now, which must not be covered by stamps above.
  static func touchPoint(
    on id: String, index: Int, canvas: Canvas
  ) throws(ReplayError) -> (stamp: Int, center: StampPoint) {
    guard let stamp = canvas.stamps.firstIndex(where: { $0.id == id }) else {
      throw .unknownStamp(item: index, id: id)
    }
    let center = canvas.viewport.toView(canvas.stamps[stamp].center)
    try check(canvas.hitTest(center) == stamp, index, .stampCovered(item: index, id: id))
    return (stamp, center)
  }

  /// The most move frames a high-level item may ask for.
  static let maxSteps = maxGestureSteps

  static func checkTiming(_ duration: Double, _ steps: Int, _ index: Int, _ key: String) throws(ReplayError) {
    try check(duration.isFinite && duration > 0, index, "\(key).duration", "must be a positive number of seconds")
    try check(steps >= 1 && steps <= maxSteps, index, "\(key).steps", "must be from 1 to \(maxSteps)")
  }

  static func check(_ ok: Bool, _ index: Int, _ field: String, _ message: String) throws(ReplayError) {
    if !ok { throw .invalidItem(item: index, field: field, message: message) }
  }

  static func check(_ ok: Bool, _ index: Int, _ error: ReplayError) throws(ReplayError) {
    if !ok { throw error }
  }
}
