/// Checks of option values that several options share; each failure names the option and what it needs.
enum OptionValue {
  /// A whole number within `range`.
  static func integer(_ text: String, option: String, range: ClosedRange<Int>) throws(UsageError) -> Int {
    guard let value = Int(text), range.contains(value) else {
      throw UsageError(
        message: "\(option) needs a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
    }
    return value
  }

  /// `WxH` as two positive numbers.
  static func pair(_ text: String, option: String) throws(UsageError) -> (Double, Double) {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), a > 0, b > 0, a.isFinite, b.isFinite
    else {
      throw UsageError(message: "\(option) needs WxH with two positive numbers (e.g. 390x844), not '\(text)'")
    }
    return (a, b)
  }
}
