/// The phase of one touch in one frame, as UIKit reports it.
public enum TouchPhase: String, Sendable, CaseIterable {
  /// The finger touched down.
  case began
  /// The finger moved.
  case moved
  /// The finger is down and did not move (another finger did).
  case stationary
  /// The finger lifted.
  case ended
  /// The system took the touch away; it is no tap.
  case cancelled
}

/// One touch sample: a finger's state at one instant, in view points.
public struct TouchEvent: Sendable, Hashable {
  /// Seconds on the gesture item's clock.
  public var t: Double
  /// The touch's identity; unique among live touches.
  public var id: Int
  /// What happened to this touch at `t`.
  public var phase: TouchPhase
  /// Where the finger is, in view points.
  public var location: StampPoint

  /// Creates a touch sample.
  public init(t: Double, id: Int, phase: TouchPhase, location: StampPoint) {
    self.t = t
    self.id = id
    self.phase = phase
    self.location = location
  }
}

/// A problem found in a touch stream, located by the index of the offending event.
public struct TouchStreamIssue: Sendable, Hashable, CustomStringConvertible {
  /// Index of the event in the stream.
  public var index: Int
  /// The event's field the problem is about (`t`, `id`, `phase`, `x`, `y`), or nil for the event as a whole.
  public var field: String?
  /// What is wrong, in lower case, e.g. `time goes backwards (0.52 after 0.60)`.
  public var message: String

  /// Creates an issue.
  public init(index: Int, field: String?, message: String) {
    self.index = index
    self.field = field
    self.message = message
  }

  /// The issue as `[index].field: message`.
  public var description: String { "[\(index)]\(field.map { ".\($0)" } ?? ""): \(message)" }
}
