import StampCore

/// Follows the kernel's multi-touch protocol B: slots whose contacts are named by tracking ids.
///
/// A slot keeps its last position across contacts and frames, because the kernel drops a value equal to the one the
/// slot already holds: a finger landing where the last one in its slot lifted may come without any position event.
/// A contact begins at the first report where both its coordinates are known; one that lifts without ever having a
/// position is dropped.
struct SlotDecoder {
  private struct Slot {
    var x: Int32?
    var y: Int32?
    var tracking: Int32?
    var touch: Int?
    var moved = false
  }

  /// A contact that lifted (or was replaced) before the report that closes its frame.
  private struct Lift {
    var slot: Int32
    var touch: Int?
    var x: Int32?
    var y: Int32?
  }

  private var slots: [Int32: Slot] = [:]
  private var current: Int32 = 0
  private var lifts: [Lift] = []
  private var nothingTouches = false
  private var dropping = false
  private var nextID = 0
  private(set) var frames: [RawFrame] = []

  /// The frames closed since the last call, handed over (the import streams: none is kept).
  mutating func takeFrames() -> [RawFrame] {
    defer { frames.removeAll(keepingCapacity: true) }
    return frames
  }

  mutating func feed(_ record: GeteventRecord) throws {
    if dropping {
      if record.event == .synReport { dropping = false }
      return
    }
    switch record.event {
    case .slot:
      guard (0...255).contains(record.value) else {
        throw ImportError.invalid(line: record.line, message: "slot \(record.value) is out of range (0 to 255)")
      }
      current = record.value
    case .trackingID:
      if record.value < 0 {
        lift(current)
      } else if slots[current]?.tracking != record.value {
        lift(current)
        slots[current, default: Slot()].tracking = record.value
      }
    case .positionX, .positionY:
      var slot = slots[current, default: Slot()]
      let old = record.event == .positionX ? slot.x : slot.y
      if record.event == .positionX { slot.x = record.value } else { slot.y = record.value }
      if old != record.value { slot.moved = true }
      slots[current] = slot
    case .buttonTouch:
      if record.value == 0 { nothingTouches = true }
    case .synDropped:
      dropping = true
    case .synMTReport:
      break
    case .synReport:
      report(at: record.micros, line: record.line)
    }
  }

  private mutating func lift(_ index: Int32) {
    guard var slot = slots[index], slot.tracking != nil else { return }
    lifts.append(Lift(slot: index, touch: slot.touch, x: slot.x, y: slot.y))
    slot.tracking = nil
    slot.touch = nil
    slots[index] = slot
  }

  private mutating func report(at micros: Int64, line: Int) {
    if nothingTouches {
      for index in slots.keys.sorted() { lift(index) }
      nothingTouches = false
    }
    var touches: [RawTouch] = []
    let liftsBySlot = Dictionary(grouping: lifts, by: \.slot)
    for index in Set(slots.keys).union(liftsBySlot.keys).sorted() {
      for lifted in liftsBySlot[index] ?? [] {
        guard let x = lifted.x, let y = lifted.y else { continue }
        let id = lifted.touch ?? newID()
        if lifted.touch == nil { touches.append(RawTouch(id: id, phase: .began, x: x, y: y)) }
        touches.append(RawTouch(id: id, phase: .ended, x: x, y: y))
      }
      guard var slot = slots[index] else { continue }
      defer { slots[index] = slot }
      guard slot.tracking != nil, let x = slot.x, let y = slot.y else {
        slot.moved = false
        continue
      }
      if let touch = slot.touch {
        if slot.moved { touches.append(RawTouch(id: touch, phase: .moved, x: x, y: y)) }
      } else {
        let id = newID()
        slot.touch = id
        touches.append(RawTouch(id: id, phase: .began, x: x, y: y))
      }
      slot.moved = false
    }
    lifts.removeAll()
    if !touches.isEmpty { frames.append(RawFrame(micros: micros, touches: touches, line: line)) }
  }

  private mutating func newID() -> Int {
    defer { nextID += 1 }
    return nextID
  }
}
