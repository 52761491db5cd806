import StampCore

/// Turns an Android `adb shell getevent` log of a touch screen into touch events in screen points.
///
/// Both forms are read: `getevent -lt` (names) and `getevent -t` (hex numbers), with or without the
/// `/dev/input/eventN:` prefix getevent adds when it watches several devices, and with or without a
/// `getevent -p`/`-lp` header. The kernel's multi-touch protocol B (slots and tracking ids) and protocol A
/// (`SYN_MT_REPORT`) are both followed.
///
/// - Touch ids are the importer's own: 0, 1, 2, ... in the order the touches began (a tracking id is a large,
///   ever-growing number, and a manifest's touch ids should be small).
/// - One `SYN_REPORT` that changes a touch is one frame; its events share one `t`, in seconds from the first frame
///   with a touch, so the trace starts at 0. Within a frame events are ordered by touch id. A touch whose position
///   did not change is left out of the frame: it keeps its last point. A `SYN_REPORT` that changes no touch gives
///   no frame (the fingers rest), but in a log without timestamps it still takes its frame interval: the k-th
///   report of the device after the first frame's has t = k x the interval.
/// - A new tracking id begins a touch, tracking id -1 (`ffffffff`) or `BTN_TOUCH UP` ends it, a changed
///   position moves it. A frame not closed by `SYN_REPORT` at the end of the log is dropped; touches still down
///   there stay down (the replay cancels them).
/// - Raw coordinates are scaled with x = (raw - min) * width / (max - min + 1), as Android's InputReader does, so a
///   panel reporting 0 to 1079 on a 1080-point-wide screen keeps its values. The ranges come from `axisMax` when it is
///   given (the minima are then 0), else from the log's `getevent -p` header.
/// - Other event types and codes (pressure, touch size, `MSC_TIMESTAMP`, keys, ...) are skipped; a line that is not
///   an event, a header line or blank is an error naming its line number.
package enum GeteventImporter {
  /// Reads a getevent log into touch events in the coordinates of a `screen`-sized view.
  ///
  /// - Parameters:
  ///   - text: The whole log.
  ///   - screen: The screen's size in points; raw axis ranges are stretched onto it.
  ///   - device: The device to read when the log has touches from several: its path (`/dev/input/event2`), the
  ///     path's last part (`event2`) or its header name (`sec_touchscreen`). Nil picks the only device with touches.
  ///   - axisMax: The raw maxima of x and y (minima 0); overrides the log's header. Needed when there is no header.
  ///   - frameInterval: Seconds between two `SYN_REPORT`s, for a log without timestamps (`getevent -l`); ignored
  ///     when the log has them.
  /// - Returns: The touch events, in time order.
  /// - Throws: ``ImportError``.
  package static func parse(
    _ text: String, screen: StampSize, device: String? = nil, axisMax: (x: Int, y: Int)? = nil,
    frameInterval: Double? = nil
  ) throws -> [TouchEvent] {
    var events: [TouchEvent] = []
    try parse(
      LogLines(text: text), screen: screen, device: device, axisMax: axisMax, frameInterval: frameInterval
    ) { event, _ in events.append(event) }
    return events
  }

  /// Reads a getevent log as `parse(_:screen:device:axisMax:frameInterval:)` does, streaming: each touch event is
  /// handed to `emit` with the log line that closed its frame as soon as the frame is read, and nothing is kept. The
  /// log is read twice: for its devices and headers, then for the chosen device's events. `emit` may throw to stop.
  package static func parse(
    _ lines: LogLines, screen: StampSize, device: String? = nil, axisMax: (x: Int, y: Int)? = nil,
    frameInterval: Double? = nil, emit: (TouchEvent, Int) throws -> Void
  ) throws {
    try checkParameters(screen: screen, axisMax: axisMax, frameInterval: frameInterval)
    var seen = DevicesSeen()
    let log = try GeteventLog(lines: lines) { seen.note($0) }
    let chosen = try choose(device, in: log, seen: seen)
    var interval: Double?
    if let line = log.untimedLine {
      guard let frameInterval else { throw ImportError.untimed(line: line) }
      interval = frameInterval
    }
    // Untimed: the clock counts the device's reports, each one frame interval long.
    var reports: Int64 = 0
    var slots = SlotDecoder()
    var contacts = ContactDecoder()
    let protocolA = seen.reportsContacts.contains(chosen)
    var start: Int64?
    var axes: (AxisRange, AxisRange)?
    _ = try GeteventLog(lines: lines) { record in
      guard record.device == chosen else { return }
      var record = record
      if interval != nil {
        record.micros = reports
        if record.event == .synReport { reports += 1 }
      }
      let frames: [RawFrame]
      if protocolA {
        contacts.feed(record)
        frames = contacts.takeFrames()
      } else {
        try slots.feed(record)
        frames = slots.takeFrames()
      }
      for frame in frames {
        // Asked for at the first frame, as a log with no touches says so first.
        let (xRange, yRange) = try axes ?? ranges(axisMax, device: chosen, in: log)
        axes = (xRange, yRange)
        let first = start ?? frame.micros
        start = first
        let ticks = Double(frame.micros - first)
        let t = interval.map { ticks * $0 } ?? ticks / 1_000_000
        let touches = frame.touches.map { touch in
          TouchEvent(
            t: t, id: touch.id, phase: touch.phase,
            location: StampPoint(xRange.scale(touch.x, to: screen.width), yRange.scale(touch.y, to: screen.height)))
        }
        for event in touches.sortedWithinFrame() { try emit(event, frame.line) }
      }
    }
    guard start != nil else {
      throw ImportError.noTouches(hint: "no finger touched down and reported a position")
    }
  }

  /// The largest screen side `parse` takes, in points: a manifest's bound on lengths.
  package static let maxScreenSide = 1e6
  /// The largest raw axis maximum `parse` takes.
  package static let maxAxis = 1_000_000_000
  /// The frame intervals `parse` takes, in seconds: above 0, at most 1 (a 1 Hz panel).
  package static let maxFrameInterval = 1.0

  /// Checks the importer's arguments, so that no absurd number reaches the output.
  static func checkParameters(screen: StampSize, axisMax: (x: Int, y: Int)?, frameInterval: Double?) throws {
    let sides = [screen.width, screen.height]
    guard sides.allSatisfy({ $0.isFinite && $0 > 0 && $0 <= maxScreenSide }) else {
      throw ImportError.badParameter(
        "the screen size must be two numbers above 0 and at most \(Int(maxScreenSide)) points, not "
          + "\(screen.width)x\(screen.height)")
    }
    if let axisMax, !(1...maxAxis).contains(axisMax.x) || !(1...maxAxis).contains(axisMax.y) {
      throw ImportError.badParameter(
        "--axis-max must be two whole numbers from 1 to \(maxAxis), not \(axisMax.x)x\(axisMax.y)")
    }
    if let frameInterval, !(frameInterval.isFinite && frameInterval > 0 && frameInterval <= maxFrameInterval) {
      throw ImportError.badParameter(
        "--frame-interval must be a number of seconds above 0 and at most 1 (e.g. 0.008 for a 120 Hz panel), "
          + "not \(frameInterval)")
    }
  }

  /// The devices a log's event lines name, in order, and which report touches, noted line by line.
  struct DevicesSeen {
    var devices: [String?] = []
    var touching: [String?] = []
    /// Devices that report contacts the protocol A way (`SYN_MT_REPORT`).
    var reportsContacts: [String?] = []

    mutating func note(_ record: GeteventRecord) {
      if !devices.contains(record.device) { devices.append(record.device) }
      let isTouch = record.event == .positionX || record.event == .positionY || record.event == .trackingID
      if isTouch, !touching.contains(record.device) { touching.append(record.device) }
      if record.event == .synMTReport, !reportsContacts.contains(record.device) {
        reportsContacts.append(record.device)
      }
    }
  }

  /// The device whose events are read, as its records name it (nil: no path prefix).
  static func choose(_ name: String?, in log: GeteventLog, seen: DevicesSeen) throws -> String? {
    let (devices, touching) = (seen.devices, seen.touching)
    let label: (String?) -> String = { log.path(of: $0) ?? "the unnamed device" }
    if let name {
      let matching = devices.filter { log.device($0, isNamed: name) }
      if matching.count > 1 { throw ImportError.ambiguousDevice(matching.map(label)) }
      guard let found = matching.first else { throw ImportError.unknownDevice(name, known: devices.map(label)) }
      return found
    }
    if touching.count > 1 { throw ImportError.ambiguousDevice(touching.map(label)) }
    guard let found = touching.first else {
      throw ImportError.noTouches(hint: devices.isEmpty ? "" : "no device reports multi-touch positions")
    }
    return found
  }

  /// The raw ranges of x and y: the given maxima, else the header's ranges for the device.
  static func ranges(
    _ axisMax: (x: Int, y: Int)?, device: String?, in log: GeteventLog
  ) throws -> (AxisRange, AxisRange) {
    if let axisMax { return (AxisRange(min: 0, max: axisMax.x), AxisRange(min: 0, max: axisMax.y)) }
    let path = log.path(of: device)
    guard let path, let header = log.headers[path], let x = header.x, let y = header.y else {
      throw ImportError.missingAxisRange(device: path)
    }
    return (x, y)
  }
}
