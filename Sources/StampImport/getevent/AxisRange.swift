/// The raw values one axis of a touch device reports, from `min` to `max` inclusive.
struct AxisRange: Sendable, Hashable {
  /// The smallest raw value.
  var min: Int
  /// The largest raw value.
  var max: Int

  /// Maps a raw value to `[0, length)` points.
  ///
  /// Each raw value stands for one cell of width `length / (max - min + 1)`, so `min` maps to 0 and `max + 1` would
  /// map to `length`, as Android's InputReader does (`getRawWidth() = max - min + 1`). On the usual panel whose axis
  /// runs from 0 to its pixel count minus one, a screen size in pixels gives back the raw values unchanged.
  func scale(_ raw: Int32, to length: Double) -> Double {
    Double(Int(raw) - min) * length / Double(max - min + 1)
  }
}

/// What a `getevent -p` or `getevent -lp` header says about one device.
struct DeviceHeader: Sendable, Hashable {
  /// The device's name, e.g. `sec_touchscreen`.
  var name: String?
  /// The range of `ABS_MT_POSITION_X`.
  var x: AxisRange?
  /// The range of `ABS_MT_POSITION_Y`.
  var y: AxisRange?

  /// Reads one line of the device's header block: its name, or an axis line such as
  /// `ABS_MT_POSITION_X : value 0, min 0, max 1079, fuzz 0, flat 0, resolution 0` (or `0035  : value 0, ...`).
  /// Other lines of the block (bus, vendor, events, key codes, input props) say nothing the import needs.
  mutating func read(_ text: String, line: Int) throws {
    let trimmed = text.trimmingWhitespace()
    if trimmed.hasPrefix("name:") {
      let value = trimmed.dropFirst("name:".count).trimmingWhitespace()
      name =
        value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2
        ? String(value.dropFirst().dropLast()) : value
      return
    }
    guard let marker = trimmed.firstRange(of: ": value") else { return }
    let label = trimmed[..<marker.lowerBound].split(whereSeparator: { $0 == " " || $0 == "\t" }).last ?? ""
    guard let code = GeteventRecord.number(label, names: EvdevEvent.codeNumbers) ?? nil,
      let event = EvdevEvent(type: EvdevEvent.evAbs, code: code), event == .positionX || event == .positionY
    else { return }
    var fields: [String: Int] = [:]
    for part in trimmed[marker.upperBound...].split(separator: ",") {
      let words = part.split(separator: " ")
      if words.count == 2, let number = Int(words[1]) { fields[String(words[0])] = number }
    }
    guard let low = fields["min"], let high = fields["max"] else {
      throw ImportError.malformed(
        line: line, text: text, expected: "'\(label) : value V, min MIN, max MAX, ...' as 'getevent -p' prints it")
    }
    guard high > low else {
      throw ImportError.invalid(line: line, message: "axis \(label) has max \(high), not above its min \(low)")
    }
    if event == .positionX { x = AxisRange(min: low, max: high) } else { y = AxisRange(min: low, max: high) }
  }
}
