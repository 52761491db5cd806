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
    func report(_ index: Int, _ field: String?, _ message: String) {
      issues.append(TouchStreamIssue(index: index, field: field, message: message))
    }
    var live: [Int] = []
    live.reserveCapacity(maxLiveTouches)
    var lastTime = -Double.infinity
    for index in events.indices {
      let event = events[index]
      if !event.t.isFinite {
        report(index, "t", "must be a finite number, not \(formatNumber(event.t))")
      } else if event.t < 0 {
        report(index, "t", "time is negative (\(formatNumber(event.t)))")
      } else if event.t < lastTime {
        report(index, "t", "time goes backwards (\(formatNumber(event.t)) after \(formatNumber(lastTime)))")
      } else {
        lastTime = event.t
      }
      if !event.location.x.isFinite {
        report(index, "x", "must be a finite number, not \(formatNumber(event.location.x))")
      }
      if !event.location.y.isFinite {
        report(index, "y", "must be a finite number, not \(formatNumber(event.location.y))")
      }
      let slot = live.firstIndex(of: event.id)
      switch event.phase {
      case .began:
        if slot != nil {
          report(index, "id", "touch \(event.id) begins again while it is down")
        } else if live.count >= maxLiveTouches {
          report(index, "phase", "more than \(maxLiveTouches) touches down at once")
        } else {
          live.append(event.id)
        }
      case .moved, .stationary, .ended, .cancelled:
        guard let slot else {
          report(index, "phase", notDown(event))
          continue
        }
        if event.phase == .ended || event.phase == .cancelled { live.remove(at: slot) }
      }
    }
    return issues
  }

  private static func notDown(_ event: TouchEvent) -> String {
    switch event.phase {
    case .moved: return "touch \(event.id) moves before it begins"
    case .stationary: return "touch \(event.id) rests before it begins"
    case .ended: return "touch \(event.id) ends before it begins"
    case .cancelled: return "touch \(event.id) is cancelled before it begins"
    case .began: return "touch \(event.id) begins"
    }
  }
}
