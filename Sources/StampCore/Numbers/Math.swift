#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

// The few libm functions the engine needs, behind one door so that no other file imports a C module.

@inline(__always) func cMathAtan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
@inline(__always) func cMathCos(_ x: Double) -> Double { cos(x) }
@inline(__always) func cMathSin(_ x: Double) -> Double { sin(x) }
@inline(__always) func cMathPow(_ x: Double, _ y: Double) -> Double { pow(x, y) }

/// Degrees per radian; angles are radians only inside the engine.
let degreesPerRadian = 180 / Double.pi

extension StampPoint {
  @inline(__always) static func + (a: StampPoint, b: StampPoint) -> StampPoint { StampPoint(a.x + b.x, a.y + b.y) }
  @inline(__always) static func - (a: StampPoint, b: StampPoint) -> StampPoint { StampPoint(a.x - b.x, a.y - b.y) }
  @inline(__always) static func * (a: StampPoint, k: Double) -> StampPoint { StampPoint(a.x * k, a.y * k) }
  @inline(__always) static func / (a: StampPoint, k: Double) -> StampPoint { StampPoint(a.x / k, a.y / k) }

  /// The squared length of the point taken as a vector.
  @inline(__always) var lengthSquared: Double { x * x + y * y }

  /// The point taken as a vector: its length.
  @inline(__always) var length: Double { lengthSquared.squareRoot() }

  /// The midpoint of two points.
  @inline(__always) static func midpoint(_ a: StampPoint, _ b: StampPoint) -> StampPoint {
    StampPoint((a.x + b.x) / 2, (a.y + b.y) / 2)
  }

  /// Whether both coordinates are finite.
  var isFinite: Bool { x.isFinite && y.isFinite }
}

/// The signed angle in radians that turns vector `a` onto vector `b`; positive is clockwise on a y-down screen.
///
/// atan2(cross, dot) rather than acos plus a slope comparison (which gives NaN,
/// wrong signs and lost turns): it is exactly 0 for equal vectors (the
/// cross product of a vector with itself is exactly 0), has the right sign in every quadrant, including across the
/// vertical and for left-pointing lines, and keeps full precision for tiny turns. A zero vector gives 0.
@inline(__always) func signedTurn(from a: StampPoint, to b: StampPoint) -> Double {
  let cross = a.x * b.y - a.y * b.x
  let dot = a.x * b.x + a.y * b.y
  if cross == 0 && dot >= 0 { return 0 }
  return cMathAtan2(cross, dot)
}

/// Formats a number for a message: the shortest exact form with at least two decimals (`0.60`, `12.00`, `0.523`).
func formatNumber(_ value: Double) -> String {
  guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
  var text = "\(value)"
  if text.contains("e") { return text }
  if let dot = text.firstIndex(of: ".") {
    let decimals = text.distance(from: dot, to: text.endIndex) - 1
    if decimals < 2 { text += String(repeating: "0", count: 2 - decimals) }
  } else {
    text += ".00"
  }
  return text
}
