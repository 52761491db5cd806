import StampCore
import Testing

@testable import StampImport

/// Logs as people paste them: shell prompts, no timestamps, CRLF line ends, trailing spaces.
enum RealWorldLogs {
  /// A phone session: `getevent -p` (numeric header) and `getevent -l` (no timestamps) of a 1080x1920 panel,
  /// typed at the phone's prompt, stopped with Ctrl-C. Protocol B, two fingers, on a 360x640-point screen (3 raw
  /// units a point). Reports, 0.008 s apart with `--frame-interval 0.008`:
  /// - 0: slot 0 lands at raw (450, 900) = (150, 300).
  /// - 1: slot 1 lands at raw (750, 900) = (250, 300).
  /// - 2: they part: slot 0 to x 390 = 130, slot 1 to x 810 = 270.
  /// - 3: a report that changes nothing: no frame, but it takes its 0.008 s.
  /// - 4 (t 0.032): slot 0 to raw (330, 855) = (110, 285), slot 1 to raw (870, 945) = (290, 315).
  /// - 5 (t 0.040): both lift.
  static let phoneSession = padded(
    """
    OnePlus3T:/ $ getevent -p /dev/input/event2
    add device 1: /dev/input/event2
      name:     "synaptics_s3320"
      events:
        KEY (0001): 0145  014a
        ABS (0003): 002f  : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0
                    0035  : value 0, min 0, max 1079, fuzz 0, flat 0, resolution 0
                    0036  : value 0, min 0, max 1919, fuzz 0, flat 0, resolution 0
                    0037  : value 0, min 0, max 15, fuzz 0, flat 0, resolution 0
                    0039  : value 0, min 0, max 65535, fuzz 0, flat 0, resolution 0
      input props:
        INPUT_PROP_DIRECT

    OnePlus3T:/ $ getevent -l /dev/input/event2
    EV_ABS       ABS_MT_TRACKING_ID   00000012
    EV_ABS       ABS_MT_TOOL_TYPE     MT_TOOL_FINGER
    EV_ABS       ABS_MT_POSITION_X    000001c2
    EV_ABS       ABS_MT_POSITION_Y    00000384
    EV_KEY       BTN_TOUCH            DOWN
    EV_SYN       SYN_REPORT           00000000
    EV_ABS       ABS_MT_SLOT          00000001
    EV_ABS       ABS_MT_TRACKING_ID   00000013
    EV_ABS       ABS_MT_POSITION_X    000002ee
    EV_ABS       ABS_MT_POSITION_Y    00000384
    EV_SYN       SYN_REPORT           00000000
    EV_ABS       ABS_MT_SLOT          00000000
    EV_ABS       ABS_MT_POSITION_X    00000186
    EV_ABS       ABS_MT_SLOT          00000001
    EV_ABS       ABS_MT_POSITION_X    0000032a
    EV_SYN       SYN_REPORT           00000000
    EV_SYN       SYN_REPORT           00000000
    EV_ABS       ABS_MT_SLOT          00000000
    EV_ABS       ABS_MT_POSITION_X    0000014a
    EV_ABS       ABS_MT_POSITION_Y    00000357
    EV_ABS       ABS_MT_SLOT          00000001
    EV_ABS       ABS_MT_POSITION_X    00000366
    EV_ABS       ABS_MT_POSITION_Y    000003b1
    EV_SYN       SYN_REPORT           00000000
    EV_ABS       ABS_MT_TRACKING_ID   ffffffff
    EV_ABS       ABS_MT_SLOT          00000000
    EV_ABS       ABS_MT_TRACKING_ID   ffffffff
    EV_KEY       BTN_TOUCH            UP
    EV_SYN       SYN_REPORT           00000000
    ^C
    130|OnePlus3T:/ $
    """)

  static let phoneSessionTouches = [
    touch(0, 0, .began, 150, 300),
    touch(0.008, 1, .began, 250, 300),
    touch(0.016, 0, .moved, 130, 300), touch(0.016, 1, .moved, 270, 300),
    touch(0.032, 0, .moved, 110, 285), touch(0.032, 1, .moved, 290, 315),
    touch(0.04, 0, .ended, 110, 285), touch(0.04, 1, .ended, 290, 315),
  ]

  /// Every labelled event line padded with spaces to the 54 columns `getevent -l` prints (its value field is
  /// `" %08x            "` or `" %-20.20s"`), so the trailing spaces are real without hiding in this source.
  static func padded(_ log: String) -> String {
    log.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.hasPrefix("EV_") ? line + String(repeating: " ", count: max(54 - line.count, 0)) : String(line)
    }.joined(separator: "\n")
  }

  /// The log with Windows line ends and trailing spaces, as a capture saved on Windows arrives.
  static func windows(_ log: String) -> String {
    log.split(separator: "\n", omittingEmptySubsequences: false).map { $0 + "  \r\n" }.joined()
  }
}
