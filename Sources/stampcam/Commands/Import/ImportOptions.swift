/// Options of `stampcam import`.
struct ImportOptions: Equatable, Sendable {
  enum Format: String, Equatable, Sendable { case getevent, cdp }
  var format: Format
  var log: String
  /// The screen in points (getevent only).
  var screen: (width: Double, height: Double)?
  /// The device to read when the log holds several (getevent only).
  var device: String?
  /// Axis maxima when the log has no `getevent -p` header (getevent only).
  var axisMax: (x: Int, y: Int)?
  /// Seconds between frames for a log without timestamps (getevent only).
  var frameInterval: Double? = nil
  /// Where to write the touches item; nil means stdout.
  var out: String?

  static func == (a: ImportOptions, b: ImportOptions) -> Bool {
    a.format == b.format && a.log == b.log && a.screen?.width == b.screen?.width
      && a.screen?.height == b.screen?.height && a.device == b.device && a.axisMax?.x == b.axisMax?.x
      && a.axisMax?.y == b.axisMax?.y && a.frameInterval == b.frameInterval && a.out == b.out
  }
}
