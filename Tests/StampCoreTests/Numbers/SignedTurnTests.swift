import Foundation
import Testing

@testable import StampCore

/// The naive turn: Float, acos of the normalised dot product and a slope comparison for the sign; what the engine
/// must not do, kept to show where it fails.
private func naiveTurn(_ l1: StampPoint, _ l2: StampPoint) -> Float {
  let a = Float(l1.x)
  let b = Float(l1.y)
  let c = Float(l2.x)
  let d = Float(l2.y)
  let slope1 = b / a
  let slope2 = d / c
  let dot: Float = a * c + b * d
  let lengths: Float = (a * a + b * b).squareRoot() * (c * c + d * d).squareRoot()
  let degs: Float = acosf(dot / lengths)
  return slope2 > slope1 ? degs : -degs
}

@Suite("signedTurn: the finger line's turn, atan2(cross, dot) in Double, never Float acos")
struct SignedTurnTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let from: StampPoint
    let to: StampPoint
    /// Worked out by hand, in degrees; positive is clockwise on a y-down screen.
    let degrees: Double
    /// Whether the naive turn gets the sign wrong here.
    let naiveSignWrong: Bool
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "right to down is clockwise", from: StampPoint(1, 0), to: StampPoint(0, 1), degrees: 90,
      naiveSignWrong: false),
    Case(
      name: "right to up is anticlockwise", from: StampPoint(1, 0), to: StampPoint(0, -1), degrees: -90,
      naiveSignWrong: false),
    // Crossing the vertical: down-right to down-left turns clockwise by 2 * atan(1/10) = 11.421186...
    Case(
      name: "crossing the vertical, downwards", from: StampPoint(1, 10), to: StampPoint(-1, 10),
      degrees: 11.421186274509,
      naiveSignWrong: true),
    // Straight down (slope infinite) to down-left: clockwise by atan(1/10) = 5.710593...
    Case(
      name: "leaving the vertical", from: StampPoint(0, 10), to: StampPoint(-1, 10), degrees: 5.710593137499643,
      naiveSignWrong: true),
    Case(
      name: "left-pointing line to up", from: StampPoint(-1, 0), to: StampPoint(0, -1), degrees: 90,
      naiveSignWrong: true
    ),
    Case(
      name: "left-pointing line to down", from: StampPoint(-1, 0), to: StampPoint(0, 1), degrees: -90,
      naiveSignWrong: false),
    // Left-down to left-up passes through left: clockwise by 2 * atan(1/10).
    Case(
      name: "left-pointing lines", from: StampPoint(-10, 1), to: StampPoint(-10, -1), degrees: 11.421186274509,
      naiveSignWrong: false),
  ]

  @Test("the sign and size of a turn, right where a slope comparison gets the sign wrong", arguments: cases)
  func turn(_ c: Case) {
    let degrees = signedTurn(from: c.from, to: c.to) * degreesPerRadian
    #expect(close(degrees, c.degrees, 1e-9))
    if c.naiveSignWrong {
      #expect(Double(naiveTurn(c.from, c.to)) * c.degrees < 0, "the naive turn should get this sign wrong")
    }
  }

  @Test("resting fingers turn by exactly 0, where acos gives NaN")
  func restingFingersGiveZero() {
    var naiveNaNs = 0
    for x in -30...30 {
      for y in -30...30 where x != 0 || y != 0 {
        let v = StampPoint(Double(x), Double(y))
        #expect(signedTurn(from: v, to: v) == 0)
        if naiveTurn(v, v).isNaN { naiveNaNs += 1 }
      }
    }
    #expect(naiveNaNs > 0, "the flaw this guards against: acos of a cosine rounded past 1")
  }

  @Test("1,800 steps of 0.05 degrees sum to 90, where Float acos loses them")
  func smallStepsSum() {
    var total = 0.0
    var naiveTotal: Float = 0
    var previous = StampPoint(150, 0)
    for k in 1...1800 {
      let radians = Double(k) * 0.05 / degreesPerRadian
      let current = StampPoint(150 * cMathCos(radians), 150 * cMathSin(radians))
      total += signedTurn(from: previous, to: current)
      naiveTotal += naiveTurn(previous, current)
      previous = current
    }
    #expect(close(total * degreesPerRadian, 90, 1e-9))
    // In Float the cosine of a 0.05-degree step is 1 - 3.8e-7, a few ulps below 1: acos of it is coarse.
    #expect(abs(Double(naiveTotal) * degreesPerRadian - 90) > 0.5, "Float acos loses most of a degree here")
  }

  @Test("a zero-length line turns by 0 rather than NaN")
  func zeroVector() {
    #expect(signedTurn(from: .zero, to: StampPoint(1, 1)) == 0)
    #expect(signedTurn(from: StampPoint(1, 1), to: .zero) == 0)
  }
}
