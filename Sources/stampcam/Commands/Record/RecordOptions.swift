/// Options of `stampcam record`.
struct RecordOptions: Equatable, Sendable {
  var manifest = ""
  var job: String?
  /// A new job's photo and stamps.
  var base: String?
  var stamps: [String] = []
  /// A new job's screen in points.
  var view: (width: Double, height: Double) = (390, 844)
  /// The address and port to listen on.
  var address = "127.0.0.1"
  var port: UInt16 = 0
  /// Whether --listen was given (then the warning is printed).
  var listens = false
  var inputs = InputOptions()

  static func == (a: RecordOptions, b: RecordOptions) -> Bool {
    a.manifest == b.manifest && a.job == b.job && a.base == b.base && a.stamps == b.stamps
      && a.view.width == b.view.width && a.view.height == b.view.height && a.address == b.address
      && a.port == b.port && a.listens == b.listens && a.inputs == b.inputs
  }
}
