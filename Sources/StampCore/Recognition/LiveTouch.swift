/// A finger that is down, as the engine tracks it between frames.
struct LiveTouch: Sendable {
  /// The touch's id in the stream.
  var id: Int
  /// When it touched down, on the job's clock.
  var downTime: Double
  /// Where it touched down, in view points.
  var down: StampPoint
  /// Where it is now; a touch that did not move in a frame keeps its last point.
  var point: StampPoint
  /// Whether it has ever been farther than `tapSlop` from where it touched down: then it is no tap. A touch exactly
  /// `tapSlop` away is still inside, so with a slop of 0 only a finger that does not move at all can tap.
  var pastSlop = false
  /// Whether it ended by being cancelled: then it is no tap either.
  var cancelled = false
  /// Whether it began in the frame being assembled.
  var isNew = true
  /// Whether it ends or is cancelled in the frame being assembled.
  var isEnding = false
  /// Whether an event of the frame being assembled was about it: a second one starts a frame of its own.
  var inFrame = true

  /// A touch that has just come down.
  init(id: Int, downTime: Double, down: StampPoint) {
    self.id = id
    self.downTime = downTime
    self.down = down
    point = down
  }

  /// Moves the finger and notes when it leaves the tap slop for good.
  @inline(__always) mutating func move(to p: StampPoint, slopSquared: Double) {
    point = p
    if !pastSlop && (p - down).lengthSquared > slopSquared { pastSlop = true }
  }

  /// Whether the touch, having ended at `time`, was a tap: down to up within `maxDuration`, inside the slop.
  func isTap(endingAt time: Double, maxDuration: Double) -> Bool {
    !cancelled && !pastSlop && time - downTime <= maxDuration
  }
}
