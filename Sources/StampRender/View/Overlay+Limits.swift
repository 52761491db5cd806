import StampCore

extension Overlay {
  /// Points of one finger's path drawn at most: 100,000 steps of a pinch are a few hundred pixels of path.
  static let maxPointsPerTrace = 4096

  /// `points` as drawn: each point closer than a pixel to the last one kept is dropped (the line is at least 2 px
  /// wide, so none of them shows), the first and last always kept; past `limit` points, `limit` evenly spaced ones
  /// (the first and last among them).
  static func simplified(_ points: [StampPoint], limit: Int = maxPointsPerTrace) -> [StampPoint] {
    guard var last = points.first, points.count > 2 else { return points }
    var kept = [last]
    for point in points.dropFirst().dropLast()
    where (point.x - last.x).magnitude >= 1 || (point.y - last.y).magnitude >= 1 {
      kept.append(point)
      last = point
    }
    if let end = points.last { kept.append(end) }
    guard kept.count > limit, limit >= 2 else { return kept }
    return (0..<limit).map { kept[$0 * (kept.count - 1) / (limit - 1)] }
  }
}

/// An SVG document kept under `limit` bytes: libxml2, which librsvg parses with, refuses a document over 10 MB
/// ("Premature end of data in tag svg"). Elements that would pass the limit are left out and counted.
struct SVGBudget {
  /// 8 MiB in all: under libxml2's 10,000,000 bytes.
  static let limit = 8 << 20
  /// Kept for the closing note and tag.
  static let reserve = 4096
  private(set) var text: String
  /// Elements left out.
  private(set) var left = 0

  init(opening: String) {
    text = opening
  }

  /// Appends `element`, or counts it as left out when it would pass the limit.
  mutating func add(_ element: String) {
    guard text.utf8.count + element.utf8.count <= Self.limit - Self.reserve else {
      left += 1
      return
    }
    text += element
  }

  /// Appends the closing note, which the limit leaves room for.
  mutating func close(_ note: String) {
    text += note
  }
}
