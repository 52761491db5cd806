/// A rectangle of whole cells (pixels, blocks or iMCUs): [left, left + width) x [top, top + height).
struct GridRect: Equatable, Hashable, Sendable, CustomStringConvertible {
  var left: Int
  var top: Int
  var width: Int
  var height: Int

  var right: Int { left + width }
  var bottom: Int { top + height }

  /// Creates a rectangle from its top-left cell and size.
  init(left: Int, top: Int, width: Int, height: Int) {
    self.left = left
    self.top = top
    self.width = width
    self.height = height
  }

  /// Creates a rectangle from its edges, nil when it would be empty.
  init?(left: Int, top: Int, right: Int, bottom: Int) {
    guard right > left, bottom > top else { return nil }
    self.init(left: left, top: top, width: right - left, height: bottom - top)
  }

  /// True when the two share at least one cell.
  func intersects(_ other: GridRect) -> Bool {
    left < other.right && other.left < right && top < other.bottom && other.top < bottom
  }

  /// The smallest rectangle holding both.
  func union(_ other: GridRect) -> GridRect {
    GridRect(
      left: min(left, other.left), top: min(top, other.top),
      width: max(right, other.right) - min(left, other.left), height: max(bottom, other.bottom) - min(top, other.top))
  }

  /// This rectangle grown by `cells` on every side and cut to [0, width) x [0, height); nil when nothing is left.
  func grown(by cells: Int, within width: Int, _ height: Int) -> GridRect? {
    GridRect(
      left: max(left - cells, 0), top: max(top - cells, 0), right: min(right + cells, width),
      bottom: min(bottom + cells, height))
  }

  var description: String { "[\(left), \(right)) x [\(top), \(bottom))" }
}
