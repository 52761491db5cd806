/// Checks on a recorded touch stream, before any of it is replayed.
public enum TouchStream {
  /// The most touches that may be down at once; a real screen reports at most about ten.
  public static let maxLiveTouches = 32

  /// Every problem in `events`, in stream order; empty when the stream can be replayed.
  ///
  /// The rules: `t`, `x` and `y` are finite and `t` is not negative; time never goes backwards; a touch begins
  /// before it moves, rests, ends or is cancelled; an id is unique among the touches that are down (it may be used
  /// again once its touch has ended); at most ``maxLiveTouches`` touches are down at once. Touches still down at the
  /// end of the stream are allowed: the replay cancels them.
  public static func validate(_ events: [TouchEvent]) -> [TouchStreamIssue] {
    var issues: [TouchStreamIssue] = []
    var check = TouchStreamCheck()
    for index in events.indices {
      check.check(events[index], index: index) { issues.append($0) }
    }
    return issues
  }
}
