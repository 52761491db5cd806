/// A getevent log read line by line: what its `-p` header says about each device, and the events the import uses.
///
/// A log may start with the output of `getevent -p` or `getevent -lp` (an `add device N: PATH` line, then indented
/// lines about that device), followed by `getevent -t` or `getevent -lt` event lines; headers may also appear later,
/// when a device is plugged in. Blank lines and lines starting with `#` are skipped, as are getevent's own
/// `could not ...` and `remove device` notices.
struct GeteventLog {
  /// Header facts by device path, e.g. `/dev/input/event2`.
  private(set) var headers: [String: DeviceHeader] = [:]
  /// Device paths in the order their headers appear.
  private(set) var headerOrder: [String] = []
  /// The event lines the import uses, in log order.
  private(set) var records: [GeteventRecord] = []

  init(_ text: String) throws {
    var headerOf: String?
    var number = 0
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
      number += 1
      let line = String(raw)
      let trimmed = line.trimmingWhitespace()
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      if trimmed.hasPrefix("[") {
        headerOf = nil
        if let record = try GeteventRecord.parse(line, line: number) { records.append(record) }
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
      } else if let device = headerOf {
        try headers[device, default: DeviceHeader()].read(line, line: number)
      } else if case .success = Result(catching: { try GeteventRecord.parse("[0] " + trimmed, line: number) }) {
        throw ImportError.malformed(
          line: number, text: line,
          expected: "a timestamp before the event: record with 'getevent -lt' or 'getevent -t'")
      } else {
        throw ImportError.malformed(line: number, text: line, expected: GeteventRecord.shape)
      }
    }
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
