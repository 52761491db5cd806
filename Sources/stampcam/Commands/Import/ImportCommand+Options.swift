import StampImport

extension ImportCommand {
  static let name = "import"
  static let forms = [
    Form(
      words: ["getevent"], operand: "LOG", options: [screen, device, axisMax, frameInterval, out],
      start: ImportOptions(format: .getevent, log: ""), setOperand: { $0.log = $1 }),
    Form(
      words: ["cdp"], operand: "LOG", options: [out], start: ImportOptions(format: .cdp, log: ""),
      setOperand: { $0.log = $1 }),
  ]

  static func unknownForm(_ word: String?) -> UsageError {
    guard let word else {
      return UsageError(message: "import needs a format: 'import getevent LOG --screen WxH' or 'import cdp LOG'")
    }
    return UsageError(message: "import reads 'getevent' or 'cdp' logs, not '\(word)'")
  }

  static let screen = Option<ImportOptions>.value(
    "--screen", "WxH", "the screen in points (getevent), e.g. 390x844; each side at most 1000000",
    required: "the screen in points, e.g. 390x844"
  ) { (options, text) throws(UsageError) in
    let (w, h) = try OptionValue.pair(text, option: "--screen")
    guard w <= GeteventImporter.maxScreenSide, h <= GeteventImporter.maxScreenSide else {
      let most = Int(GeteventImporter.maxScreenSide)
      throw UsageError(message: "--screen sides must be at most \(most) points, not '\(text)'")
    }
    options.screen = (w, h)
  }

  static let device = Option<ImportOptions>.value(
    "--device", "NAME", "which device of a log that holds several: /dev/input/event2, event2 or its name"
  ) { $0.device = $1 }

  static let axisMax = Option<ImportOptions>.value(
    "--axis-max", "XxY", "the touch axes' maxima when the log has no -p/-lp header, e.g. 1079x2399"
  ) { (options, text) throws(UsageError) in
    let (x, y) = try OptionValue.pair(text, option: "--axis-max")
    let most = Double(GeteventImporter.maxAxis)
    guard x == x.rounded(), y == y.rounded(), x <= most, y <= most else {
      throw UsageError(
        message: "--axis-max needs whole numbers up to \(GeteventImporter.maxAxis), as XxY (e.g. 1079x2399)")
    }
    options.axisMax = (Int(x), Int(y))
  }

  static let frameInterval = Option<ImportOptions>.value(
    "--frame-interval", "S",
    "seconds between two SYN_REPORTs for a log without timestamps, above 0 and at most 1: 0.016667 for a 60 Hz "
      + "panel, 0.008 for 120 Hz (ignored when the log has timestamps)"
  ) { (options, text) throws(UsageError) in
    guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= GeteventImporter.maxFrameInterval
    else {
      throw UsageError(
        message: "--frame-interval needs seconds above 0 and at most 1 (e.g. 0.008 for a 120 Hz panel), not '\(text)'"
      )
    }
    options.frameInterval = seconds
  }

  static let out = Option<ImportOptions>.value(
    "--out", "FILE", "write the item to FILE (atomically) instead of stdout"
  ) { $0.out = $1 }
}

extension Command {
  static func importLog(_ options: ImportOptions) -> Command { Command(ImportCommand(options)) }
}
