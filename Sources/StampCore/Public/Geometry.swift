/// A point in a 2-D space with y pointing down (view points or image pixels, as the context says).
public struct StampPoint: Sendable, Hashable, CustomStringConvertible {
  /// The horizontal coordinate.
  public var x: Double
  /// The vertical coordinate, growing downwards.
  public var y: Double

  /// Creates a point.
  public init(_ x: Double, _ y: Double) {
    self.x = x
    self.y = y
  }

  /// The origin.
  public static let zero = StampPoint(0, 0)

  /// `(x, y)`.
  public var description: String { "(\(x), \(y))" }
}

/// A width and a height.
public struct StampSize: Sendable, Hashable, CustomStringConvertible {
  /// The horizontal extent.
  public var width: Double
  /// The vertical extent.
  public var height: Double

  /// Creates a size.
  public init(_ width: Double, _ height: Double) {
    self.width = width
    self.height = height
  }

  /// `WIDTHxHEIGHT`.
  public var description: String { "\(width)x\(height)" }
}

/// An axis-aligned rectangle: origin (top-left) and size.
public struct StampRect: Sendable, Hashable {
  /// The top-left corner.
  public var origin: StampPoint
  /// The extent.
  public var size: StampSize

  /// Creates a rectangle.
  public init(x: Double, y: Double, width: Double, height: Double) {
    origin = StampPoint(x, y)
    size = StampSize(width, height)
  }
}
