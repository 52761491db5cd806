import StampCore

/// The settings one level of the manifest (defaults, a job) gives; absent keys leave the level below alone.
struct SettingsPatch: Sendable {
  var scaleRange: ClosedRange<Double>?
  var zoomRange: ClosedRange<Double>?
  var doubleTap: DoubleTapMode?
  var zoomStep: Double?
  var tapMaxDuration: Double?
  var tapSlop: Double?
  var pinchSlop: Double?
  var doubleTapInterval: Double?
  var doubleTapDistance: Double?
  var pinchMoves: Bool?
  var quality: Int?

  func apply(to settings: inout GestureSettings) {
    if let scaleRange { settings.scaleRange = scaleRange }
    if let zoomRange { settings.zoomRange = zoomRange }
    if let doubleTap { settings.doubleTap = doubleTap }
    if let zoomStep { settings.zoomStep = zoomStep }
    if let tapMaxDuration { settings.tapMaxDuration = tapMaxDuration }
    if let tapSlop { settings.tapSlop = tapSlop }
    if let pinchSlop { settings.pinchSlop = pinchSlop }
    if let doubleTapInterval { settings.doubleTapInterval = doubleTapInterval }
    if let doubleTapDistance { settings.doubleTapDistance = doubleTapDistance }
    if let pinchMoves { settings.pinchMoves = pinchMoves }
    if let quality { settings.quality = quality }
  }
}
