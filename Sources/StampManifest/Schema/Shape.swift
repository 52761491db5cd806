import StampCore

/// The closed interval (or half-open at the bottom) a manifest number must lie in.
struct NumberBounds: Sendable {
  var min: Double
  /// When true the number must be greater than `min`, not equal to it.
  var minExclusive: Bool
  var max: Double

  /// What is wrong with `x`, or nil when it is within bounds: `1e-300 is too small (at least 0.001)`,
  /// `0 is too small (greater than 0)`, `2000000 is too large (at most 1000000)`.
  func problem(with x: Double) -> String? {
    if minExclusive ? x <= min : x < min {
      return "\(format(x)) is too small (\(minExclusive ? "greater than" : "at least") \(format(min)))"
    }
    if x > max { return "\(format(x)) is too large (at most \(format(max)))" }
    return nil
  }

  // Why these bounds. Every number of a job ends up in products and quotients: view points per image pixel
  // k = fit * zoom with fit = min(view / image, 1), an image point (p + offset - inset) / k, a stamp's size in
  // pixels width / k * scale, finger distances and their ratios, times divided by steps. A lower bound of 0
  // let 1e-300 in, and 1e-300 * 1e-300 is 0: a division by it gave infinities that trapped in the renderer and
  // printed `-inf` in explain. So every positive quantity is at least 1e-3 (0.01 for a screen's scale) and at
  // most 1e6 (1e3 for factors and zooms), which no real use comes near. The worst case then stays far inside a
  // double's 1e-308...1e308 and never underflows: with images at most 1e7 pixels a side (libvips' limit), k is
  // at least (1e-3 / 1e7) * 1e-3 = 1e-13 and at most 1e3, an offset at most 1e7 * 1e3 = 1e10 points, an image
  // coordinate at most (1e6 + 1e10) / 1e-13 ~ 1e23, a stamp at most 1e6 / 1e-13 * 1e3 = 1e22 pixels (the
  // replay refuses one over 1e6 pixels across before rendering), and their squares about 1e46. Angles up to
  // 1e6 degrees keep full precision through sin and cos; a gesture's steps are at most `maxGestureSteps`.

  /// Coordinates: anything farther than a million points or pixels is a mistake.
  static let coordinate = NumberBounds(min: -1e6, minExclusive: false, max: 1e6)
  /// Widths and view sizes, in points or pixels.
  static let length = NumberBounds(min: 1e-3, minExclusive: false, max: 1e6)
  /// A view's sides, in points: at least `Limits.minViewSide`.
  static let viewSide = NumberBounds(min: Limits.minViewSide, minExclusive: false, max: 1e6)
  static let distance = NumberBounds(min: 0, minExclusive: false, max: 1e6)
  /// Scale factors, and the ends of the scale and zoom ranges.
  static let factor = NumberBounds(min: 1e-3, minExclusive: false, max: 1000)
  /// A screen's pixels per point.
  static let screenScale = NumberBounds(min: 0.01, minExclusive: false, max: 16)
  static let angle = NumberBounds(min: -1e6, minExclusive: false, max: 1e6)
  /// A gesture's or a tap's duration: at least a millisecond, at most an hour.
  static let duration = NumberBounds(min: 1e-3, minExclusive: false, max: 3600)
  static let interval = NumberBounds(min: 0, minExclusive: false, max: 3600)
  /// A high-level gesture's move frames: the same limit the gesture engine applies.
  static let steps = NumberBounds(min: 1, minExclusive: false, max: Double(maxGestureSteps))
  /// Integer ids (jobs, stamps, touches): the range the decoder reads them in, exactly representable as doubles.
  static let identifier = NumberBounds(min: -9e15, minExclusive: false, max: 9e15)
}

/// What a manifest field holds; drives both the decoder's checks and the JSON Schema, so they cannot drift.
indirect enum FieldType: Sendable {
  /// A non-empty string.
  case string
  /// A non-empty relative path without `..` components (outputs).
  case relativePath
  /// A non-empty string or an integer (ids).
  case identifier
  /// A finite number within bounds.
  case number(NumberBounds)
  /// An integer within bounds.
  case integer(NumberBounds)
  /// `true` or `false`.
  case boolean
  /// `[x, y]`, each a coordinate.
  case point
  /// `[min, max]`, each within `NumberBounds.factor`, min <= max.
  case range
  /// One of a few strings.
  case choice([String])
  /// Exactly this integer.
  case constant(Int)
  /// An object of another shape.
  case object(Shape)
  /// An array of objects of another shape.
  case array(Shape)
  /// A non-empty string, or an object of another shape that says more (`"photos"`: a glob, or `{"glob": ...}`).
  case stringOr(Shape)
}

/// One key of a manifest object.
struct Field: Sendable {
  let name: String
  let type: FieldType
  let required: Bool
  /// One sentence for the schema's description.
  let summary: String

  init(_ name: String, _ type: FieldType, required: Bool = false, _ summary: String) {
    self.name = name
    self.type = type
    self.required = required
    self.summary = summary
  }
}

/// The keys a manifest object may have.
struct Shape: Sendable {
  /// The name under the schema's `$defs`.
  let name: String
  let summary: String
  let fields: [Field]
  /// Groups of keys of which exactly one must be present (pinch `on`/`at`); for gesture items, all the keys.
  let exactlyOneOf: [String]

  init(_ name: String, _ summary: String, _ fields: [Field], exactlyOneOf: [String] = []) {
    self.name = name
    self.summary = summary
    self.fields = fields
    self.exactlyOneOf = exactlyOneOf
  }

  var keys: [String] { fields.map(\.name) }

  func field(_ name: String) -> Field? {
    fields.first { $0.name == name }
  }
}

/// Numbers in messages: integers without a fraction, others as Swift prints them.
func format(_ x: Double) -> String {
  if x == x.rounded() && abs(x) < 1e15 { return String(Int(x)) }
  return String(x)
}

extension Shape {
  /// The bounds of a number or integer field; unbounded for anything else.
  func bounds(_ name: String) -> NumberBounds {
    switch field(name)?.type {
    case .number(let bounds), .integer(let bounds): bounds
    default: NumberBounds(min: -Double.greatestFiniteMagnitude, minExclusive: false, max: .greatestFiniteMagnitude)
    }
  }
}
