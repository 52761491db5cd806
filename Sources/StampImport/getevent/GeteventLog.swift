/// A getevent log read line by line: what its `-p` header says about each device, and the events the import uses.
///
/// A log may start with the output of `getevent -p` or `getevent -lp` (an `add device N: PATH` line, then indented
/// lines about that device), followed by event lines with timestamps (`getevent -t`, `-lt`) or without (`getevent`,
/// `-l`); headers may also appear later, when a device is plugged in. Lines may end in CRLF and carry trailing
/// spaces. Skipped: blank lines, lines starting with `#`, getevent's own `could not ...` and `remove device`
/// notices, shell prompts (`root@android:/ # getevent -l`, `OnePlus3T:/ $`), the echoed `getevent` command and `^C`.
struct GeteventLog {
  /// Header facts by device path, e.g. `/dev/input/event2`.
  private(set) var headers: [String: DeviceHeader] = [:]
  /// Device paths in the order their headers appear.
  private(set) var headerOrder: [String] = []
  /// The first event line without a timestamp, if the log's events have none.
  private(set) var untimedLine: Int?

  /// Reads the log's `lines` (without their line ends) once, handing each event line the import uses to `record`,
  /// in log order; none is kept.
  init(lines: LogLines, record: (GeteventRecord) throws -> Void) throws {
    var headerOf: String?
    var timedLine: Int?
    var number = 0
    let next = try lines.open()
    while let raw = try next() {
      number += 1
      let line = raw
      let trimmed = line.trimmingWhitespace()
      if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed == "^C" { continue }
      if trimmed.hasPrefix("[") {
        headerOf = nil
        if untimedLine != nil { throw Self.mixed(number, timed: true) }
        timedLine = timedLine ?? number
        if let parsed = try GeteventRecord.parse(line, line: number) { try record(parsed) }
      } else if GeteventRecord.isUntimedEvent(trimmed) {
        headerOf = nil
        if timedLine != nil { throw Self.mixed(number, timed: false) }
        untimedLine = untimedLine ?? number
        if let parsed = try GeteventRecord.parseUntimed(trimmed, line: number) { try record(parsed) }
      } else if trimmed.hasPrefix("add device") {
        guard let colon = trimmed.firstIndex(of: ":") else {
          throw ImportError.malformed(line: number, text: line, expected: "'add device N: /dev/input/eventN'")
        }
        let path = trimmed[trimmed.index(after: colon)...].trimmingWhitespace()
        if headers[path] == nil { headerOrder.append(path) }
        headers[path] = DeviceHeader()
        headerOf = path
      } else if trimmed.hasPrefix("remove device") || trimmed.hasPrefix("could not") {
        continue
      } else if Self.isShellLine(trimmed) {
        headerOf = nil
      } else if let device = headerOf {
        try headers[device, default: DeviceHeader()].read(line, line: number)
      } else {
        throw ImportError.malformed(line: number, text: line, expected: GeteventRecord.shape)
      }
    }
  }

  /// A shell prompt (`root@android:/ #`, `OnePlus3T:/ $ getevent -lt`, `C:\adb>`) or a command that runs
  /// getevent (`adb shell getevent -l`): text a terminal shows around a capture, not part of it.
  static func isShellLine(_ text: String) -> Bool {
    let tokens = text.split(whereSeparator: \.isWhitespace)
    if tokens.contains(where: { $0 == "getevent" || $0.hasSuffix("/getevent") || $0.hasSuffix(">getevent") }) {
      return true
    }
    guard let first = tokens.first, first.contains(":") || first.contains("@") else { return false }
    if first.hasSuffix(">") || first.hasSuffix("$") || first.hasSuffix("#") { return true }
    return tokens.count > 1 && (tokens[1] == "$" || tokens[1] == "#")
  }

  private static func mixed(_ line: Int, timed: Bool) -> ImportError {
    .invalid(
      line: line,
      message: timed
        ? "this event has a timestamp but the ones before have none: record the whole log with 'getevent -lt'"
        : "this event has no timestamp but the ones before have: record the whole log with 'getevent -lt'")
  }

  /// The device a record belongs to: its path, or for a log of one device without path prefixes, the device the
  /// header describes (the only one, or the only one with both position axes).
  func path(of device: String?) -> String? {
    if let device { return device }
    if headerOrder.count == 1 { return headerOrder.first }
    let touchScreens = headerOrder.filter { headers[$0]?.x != nil && headers[$0]?.y != nil }
    return touchScreens.count == 1 ? touchScreens.first : nil
  }

  /// Whether `name` names the device: its whole path, the path's last part (`event2`) or the header's name.
  func device(_ device: String?, isNamed name: String) -> Bool {
    guard let path = path(of: device) else { return false }
    let lastPart = path.split(separator: "/").last.map(String.init)
    return path == name || lastPart == name || headers[path]?.name == name
  }
}
