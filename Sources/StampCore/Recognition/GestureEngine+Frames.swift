/// What a live session needs beyond the replay's event-by-event feed: closing a frame as soon as it has arrived, and
/// letting the clock run with no new touch.
extension GestureEngine {
  /// Applies the frame being assembled now instead of when the next one starts; the next event opens a new frame
  /// even if it has the same time. Applying it now or at the next frame's start is the same, since a frame is
  /// applied at its own time.
  mutating func endFrame() {
    if frameOpen { commit() }
    frameOpen = false
  }

  /// Fires what a frame at `time` would fire before it looks at its touches: the pending single taps that fell due
  /// strictly before `time` (a touch beginning exactly at a tap's deadline can still make it a double tap), and a
  /// held-back single tap whose second touch has by then been down longer than a tap lasts. Each fires at its own
  /// time, so firing it now or at the next frame records the same gesture.
  mutating func fireDueTaps(before time: Double) {
    while let single = taps.dueSingleTap(at: time, inclusive: false) { record(.tap, t: single.t, at: single.at) }
    if let single = taps.heldTapExpired(at: time) { record(.tap, t: single.t, at: single.at) }
  }
}
