/// The few evdev events a touch import needs; every other type and code in a log is skipped.
///
/// Codes are those of the kernel's `input-event-codes.h`; `getevent -l` prints their names, plain `getevent` their
/// numbers in hex, and `-l` falls back to the number for a code it has no name for, so both are accepted anywhere.
enum EvdevEvent: Sendable, Hashable {
  /// `EV_SYN SYN_REPORT`: the end of one frame.
  case synReport
  /// `EV_SYN SYN_MT_REPORT`: the end of one contact (protocol A).
  case synMTReport
  /// `EV_SYN SYN_DROPPED`: the kernel's buffer overflowed; the events up to the next report are incomplete.
  case synDropped
  /// `EV_KEY BTN_TOUCH`: something touches the screen (1) or nothing does (0).
  case buttonTouch
  /// `EV_ABS ABS_MT_SLOT`: the slot the next events are about (protocol B).
  case slot
  /// `EV_ABS ABS_MT_TRACKING_ID`: a new contact in the slot, or -1 when it lifts.
  case trackingID
  /// `EV_ABS ABS_MT_POSITION_X`.
  case positionX
  /// `EV_ABS ABS_MT_POSITION_Y`.
  case positionY

  static let evSyn = 0x00
  static let evKey = 0x01
  static let evAbs = 0x03

  /// The event for a numeric type and code, or nil for one the import does not use.
  init?(type: Int, code: Int) {
    switch (type, code) {
    case (Self.evSyn, 0x00): self = .synReport
    case (Self.evSyn, 0x02): self = .synMTReport
    case (Self.evSyn, 0x03): self = .synDropped
    case (Self.evKey, 0x14a): self = .buttonTouch
    case (Self.evAbs, 0x2f): self = .slot
    case (Self.evAbs, 0x35): self = .positionX
    case (Self.evAbs, 0x36): self = .positionY
    case (Self.evAbs, 0x39): self = .trackingID
    default: return nil
    }
  }

  /// Numbers of the event types getevent names, keyed by their names.
  static let typeNumbers: [String: Int] = [
    "EV_SYN": 0x00, "EV_KEY": 0x01, "EV_REL": 0x02, "EV_ABS": 0x03, "EV_MSC": 0x04, "EV_SW": 0x05,
    "EV_LED": 0x11, "EV_SND": 0x12, "EV_REP": 0x14, "EV_FF": 0x15, "EV_PWR": 0x16, "EV_FF_STATUS": 0x17,
  ]

  /// Numbers of the codes the import uses, keyed by their names; other names are skipped like other numbers.
  static let codeNumbers: [String: Int] = [
    "SYN_REPORT": 0x00, "SYN_MT_REPORT": 0x02, "SYN_DROPPED": 0x03, "BTN_TOUCH": 0x14a,
    "ABS_MT_SLOT": 0x2f, "ABS_MT_POSITION_X": 0x35, "ABS_MT_POSITION_Y": 0x36, "ABS_MT_TRACKING_ID": 0x39,
  ]

  /// Values `getevent -l` prints by name: key states, and the tool types of `ABS_MT_TOOL_TYPE`.
  static let valueNames: [String: Int32] = [
    "UP": 0, "DOWN": 1, "REPEAT": 2, "MT_TOOL_FINGER": 0, "MT_TOOL_PEN": 1, "MT_TOOL_MAX": 0x0f,
  ]
}
