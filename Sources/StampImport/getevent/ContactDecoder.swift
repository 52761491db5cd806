import StampCore

/// Follows the kernel's multi-touch protocol A: every frame lists all contacts, each closed by `SYN_MT_REPORT`, and a
/// frame with none means every finger lifted.
///
/// Contacts carry no identity unless the driver sends `ABS_MT_TRACKING_ID`; then they are matched by it. Otherwise
/// each contact is matched to the nearest one of the previous frame (closest pairs first), which is what a finger
/// moving less between two reports than the distance to its neighbour does.
struct ContactDecoder {
  private struct Contact {
    var tracking: Int32?
    var x: Int32
    var y: Int32
  }

  private struct Live {
    var touch: Int
    var contact: Contact
  }

  private var live: [Live] = []
  private var reported: [Contact] = []
  private var building: (tracking: Int32?, x: Int32?, y: Int32?) = (nil, nil, nil)
  private var dropping = false
  private var nextID = 0
  private(set) var frames: [RawFrame] = []

  /// The frames closed since the last call, handed over (the import streams: none is kept).
  mutating func takeFrames() -> [RawFrame] {
    defer { frames.removeAll(keepingCapacity: true) }
    return frames
  }

  mutating func feed(_ record: GeteventRecord) {
    if dropping {
      if record.event == .synReport { dropping = false }
      return
    }
    switch record.event {
    case .trackingID: building.tracking = record.value >= 0 ? record.value : nil
    case .positionX: building.x = record.value
    case .positionY: building.y = record.value
    case .synMTReport: closeContact()
    case .synReport:
      closeContact()
      report(at: record.micros, line: record.line)
    case .synDropped: dropping = true
    case .slot, .buttonTouch: break
    }
  }

  /// Ends the contact being described; one without both coordinates cannot be placed and is left out.
  private mutating func closeContact() {
    if let x = building.x, let y = building.y { reported.append(Contact(tracking: building.tracking, x: x, y: y)) }
    building = (nil, nil, nil)
  }

  private mutating func report(at micros: Int64, line: Int) {
    var touches: [RawTouch] = []
    var matchedLive = Set<Int>()
    var next: [Live] = []
    let matches = matching()
    for (index, contact) in reported.enumerated() {
      if let liveIndex = matches[index] {
        matchedLive.insert(liveIndex)
        let old = live[liveIndex]
        if old.contact.x != contact.x || old.contact.y != contact.y {
          touches.append(RawTouch(id: old.touch, phase: .moved, x: contact.x, y: contact.y))
        }
        next.append(Live(touch: old.touch, contact: contact))
      } else {
        let id = nextID
        nextID += 1
        touches.append(RawTouch(id: id, phase: .began, x: contact.x, y: contact.y))
        next.append(Live(touch: id, contact: contact))
      }
    }
    for (index, old) in live.enumerated() where !matchedLive.contains(index) {
      touches.append(RawTouch(id: old.touch, phase: .ended, x: old.contact.x, y: old.contact.y))
    }
    live = next
    reported.removeAll()
    if !touches.isEmpty { frames.append(RawFrame(micros: micros, touches: touches, line: line)) }
  }

  /// For each reported contact, the index of the live contact it continues, if any.
  private func matching() -> [Int: Int] {
    var result: [Int: Int] = [:]
    if !reported.isEmpty, reported.allSatisfy({ $0.tracking != nil }) {
      for (index, contact) in reported.enumerated() {
        if let liveIndex = live.firstIndex(where: { $0.contact.tracking == contact.tracking }) {
          result[index] = liveIndex
        }
      }
      return result
    }
    var pairs: [(distance: Int64, reported: Int, live: Int)] = []
    for (i, contact) in reported.enumerated() {
      for (j, old) in live.enumerated() {
        let dx = Int64(contact.x) - Int64(old.contact.x)
        let dy = Int64(contact.y) - Int64(old.contact.y)
        pairs.append((dx * dx + dy * dy, i, j))
      }
    }
    pairs.sort { ($0.distance, $0.reported, $0.live) < ($1.distance, $1.reported, $1.live) }
    var usedLive = Set<Int>()
    for pair in pairs where result[pair.reported] == nil && !usedLive.contains(pair.live) {
      result[pair.reported] = pair.live
      usedLive.insert(pair.live)
    }
    return result
  }
}
