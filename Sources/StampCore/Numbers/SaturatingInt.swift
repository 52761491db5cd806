extension Int {
  /// `value` rounded toward zero and clamped to Int's range, NaN giving 0: `Int(_:)` would trap on any of those.
  ///
  /// For the geometry boundary, where a double derived from a placement turns into a pixel index. Callers clamp
  /// the result to the image at once, so a saturated value never reaches arithmetic that could overflow.
  package init(saturating value: Double) {
    // 2^63 is exactly representable; every double below it in magnitude converts exactly after truncation.
    let limit = 9_223_372_036_854_775_808.0
    if value.isNaN {
      self = 0
    } else if value >= limit {
      self = .max
    } else if value < -limit {
      self = .min
    } else {
      self = Int(value)
    }
  }
}
