import StampCore

/// Checks of single values. Paths are autoclosures so that the hot loops (touch traces) build none unless they
/// report.
extension ManifestWalker {
  mutating func number(_ v: JSONValue, _ bounds: NumberBounds, _ path: @autoclosure () -> String) -> Double? {
    guard case .number(let x) = v.kind else {
      report(v, path(), "expected a number, found \(v.typeName)")
      return nil
    }
    guard x.isFinite else {
      report(v, path(), "must be a finite number")
      return nil
    }
    if let problem = bounds.problem(with: x) {
      report(v, path(), problem)
      return nil
    }
    return x
  }

  mutating func integer(_ v: JSONValue, _ bounds: NumberBounds, _ path: @autoclosure () -> String) -> Int? {
    guard let x = number(v, bounds, path()) else { return nil }
    guard x == x.rounded() else {
      report(v, path(), "expected an integer, found \(format(x))")
      return nil
    }
    // Bounds wider than Int's (the unbounded ones) must not trap on the conversion.
    guard let n = Int(exactly: x) else {
      report(v, path(), "integer \(format(x)) is too large")
      return nil
    }
    return n
  }

  mutating func string(_ v: JSONValue, _ path: @autoclosure () -> String) -> String? {
    guard case .string(let s) = v.kind else {
      report(v, path(), "expected a string, found \(v.typeName)")
      return nil
    }
    guard !s.isEmpty else {
      report(v, path(), "must not be empty")
      return nil
    }
    guard !s.utf8.contains(0) else {
      report(v, path(), "must not contain a nul character")
      return nil
    }
    return s
  }

  /// A non-empty string, or an integer written as its decimal digits.
  mutating func identifier(_ v: JSONValue, _ path: @autoclosure () -> String) -> String? {
    switch v.kind {
    case .string: return string(v, path())
    case .number:
      let bounds = NumberBounds(min: -9e15, minExclusive: false, max: 9e15)
      return integer(v, bounds, path()).map { String($0) }
    default:
      report(v, path(), "expected a string or an integer, found \(v.typeName)")
      return nil
    }
  }

  mutating func bool(_ v: JSONValue, _ path: @autoclosure () -> String) -> Bool? {
    guard case .bool(let b) = v.kind else {
      report(v, path(), "expected true or false, found \(v.typeName)")
      return nil
    }
    return b
  }

  /// Two numbers `[a, b]`, each checked against `bounds`.
  mutating func pair(_ v: JSONValue, _ bounds: NumberBounds, _ path: String, _ shape: String) -> (Double, Double)? {
    guard case .array(let items) = v.kind else {
      report(v, path, "expected \(shape), found \(v.typeName)")
      return nil
    }
    guard items.count == 2 else {
      report(v, path, "expected \(shape), found \(items.count) \(items.count == 1 ? "item" : "items")")
      return nil
    }
    let a = number(items[0], bounds, element(path, 0))
    let b = number(items[1], bounds, element(path, 1))
    guard let a, let b else { return nil }
    return (a, b)
  }

  mutating func point(_ v: JSONValue, _ path: String) -> StampPoint? {
    pair(v, .coordinate, path, "[x, y]").map { StampPoint($0.0, $0.1) }
  }

  /// `[min, max]` with min <= max, each a factor.
  mutating func range(_ v: JSONValue, _ path: String) -> ClosedRange<Double>? {
    guard let (low, high) = pair(v, .factor, path, "[min, max]") else { return nil }
    guard low <= high else {
      report(v, path, "min \(format(low)) is greater than max \(format(high))")
      return nil
    }
    return low...high
  }

  /// One of `options`; `noun` names what is unknown (`phase`, `mode`).
  mutating func choice(_ v: JSONValue, _ options: [String], _ noun: String, _ path: @autoclosure () -> String)
    -> String?
  {
    guard case .string(let s) = v.kind else {
      report(v, path(), "expected a string, found \(v.typeName)")
      return nil
    }
    guard options.contains(s) else {
      let list = options.dropLast().joined(separator: ", ") + " or " + (options.last ?? "")
      report(v, path(), "unknown \(noun) \"\(s)\" (expected \(list))")
      return nil
    }
    return s
  }
}
