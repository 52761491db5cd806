/// The closed interval (or half-open at the bottom) a manifest number must lie in.
struct NumberBounds: Sendable {
  var min: Double
  /// When true the number must be greater than `min`, not equal to it.
  var minExclusive: Bool
  var max: Double

  func contains(_ x: Double) -> Bool {
    (minExclusive ? x > min : x >= min) && x <= max
  }

  /// `must be greater than 0 and at most 1000`, `must be between 1 and 100`.
  var requirement: String {
    if minExclusive { return "must be greater than \(format(min)) and at most \(format(max))" }
    return "must be between \(format(min)) and \(format(max))"
  }

  /// Coordinates and lengths: anything farther than a million points or pixels is a mistake.
  static let coordinate = NumberBounds(min: -1e6, minExclusive: false, max: 1e6)
  static let length = NumberBounds(min: 0, minExclusive: true, max: 1e6)
  static let distance = NumberBounds(min: 0, minExclusive: false, max: 1e6)
  static let factor = NumberBounds(min: 0, minExclusive: true, max: 1000)
  static let angle = NumberBounds(min: -1e6, minExclusive: false, max: 1e6)
  static let duration = NumberBounds(min: 0, minExclusive: true, max: 3600)
  static let interval = NumberBounds(min: 0, minExclusive: false, max: 3600)
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
  /// `[min, max]`, 0 < min <= max.
  case range
  /// One of a few strings.
  case choice([String])
  /// Exactly this integer.
  case constant(Int)
  /// An object of another shape.
  case object(Shape)
  /// An array of objects of another shape.
  case array(Shape)
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
