/// A two-finger pinch on a 1080x2400 panel (axes 0...1079 and 0...2399), worked by hand, in both getevent forms.
///
/// On a 360x800-point screen one point is 3 raw units on both axes (1080 / 360 = 2400 / 800 = 3), so every raw value
/// below was chosen divisible by 3. Frames, 10 ms apart:
/// - 0.00: slot 0, tracking id 0x101, lands at raw (300, 900) = (100, 300) pt: touch 0 begins.
/// - 0.01: slot 1, tracking id 0x102, lands at raw (600, 1500) = (200, 500) pt: touch 1 begins.
/// - 0.02: slot 0 to raw (270, 870) = (90, 290), slot 1 to raw (630, 1530) = (210, 510): both move apart.
/// - 0.03: slot 1 (still the current slot) y to raw 1560 = 520; slot 0 does not move and is left out.
/// - 0.04: slot 0 lifts (tracking id ffffffff): touch 0 ends where it was, (90, 290).
/// - 0.05: slot 1 lifts: touch 1 ends at (210, 520).
/// Pressure, touch size, BTN_TOOL_FINGER and MSC_TIMESTAMP lines are noise the import skips.
enum PinchLogs {
  static let expected = [
    touch(0, 0, .began, 100, 300),
    touch(0.01, 1, .began, 200, 500),
    touch(0.02, 0, .moved, 90, 290), touch(0.02, 1, .moved, 210, 510),
    touch(0.03, 1, .moved, 210, 520),
    touch(0.04, 0, .ended, 90, 290),
    touch(0.05, 1, .ended, 210, 520),
  ]

  /// `getevent -lp` then `getevent -lt` of all devices: names, and a device prefix on every event line.
  static let labelled = """
    add device 1: /dev/input/event2
      name:     "test_touchscreen"
      events:
        KEY (0001): BTN_TOOL_FINGER       BTN_TOUCH
        ABS (0003): ABS_MT_SLOT           : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0
                    ABS_MT_TOUCH_MAJOR    : value 0, min 0, max 255, fuzz 0, flat 0, resolution 0
                    ABS_MT_POSITION_X     : value 0, min 0, max 1079, fuzz 0, flat 0, resolution 0
                    ABS_MT_POSITION_Y     : value 0, min 0, max 2399, fuzz 0, flat 0, resolution 0
                    ABS_MT_TRACKING_ID    : value 0, min 0, max 65535, fuzz 0, flat 0, resolution 0
                    ABS_MT_PRESSURE       : value 0, min 0, max 255, fuzz 0, flat 0, resolution 0
      input props:
        INPUT_PROP_DIRECT
    [    4711.250000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   00000101
    [    4711.250000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    0000012c
    [    4711.250000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    00000384
    [    4711.250000] /dev/input/event2: EV_ABS       ABS_MT_TOUCH_MAJOR   00000006
    [    4711.250000] /dev/input/event2: EV_ABS       ABS_MT_PRESSURE      0000002a
    [    4711.250000] /dev/input/event2: EV_KEY       BTN_TOUCH            DOWN
    [    4711.250000] /dev/input/event2: EV_KEY       BTN_TOOL_FINGER      DOWN
    [    4711.250000] /dev/input/event2: EV_MSC       MSC_TIMESTAMP        00000000
    [    4711.250000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
    [    4711.260000] /dev/input/event2: EV_ABS       ABS_MT_SLOT          00000001
    [    4711.260000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   00000102
    [    4711.260000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    00000258
    [    4711.260000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    000005dc
    [    4711.260000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
    [    4711.270000] /dev/input/event2: EV_ABS       ABS_MT_SLOT          00000000
    [    4711.270000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    0000010e
    [    4711.270000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    00000366
    [    4711.270000] /dev/input/event2: EV_ABS       ABS_MT_SLOT          00000001
    [    4711.270000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    00000276
    [    4711.270000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    000005fa
    [    4711.270000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
    [    4711.280000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    00000618
    [    4711.280000] /dev/input/event2: EV_ABS       ABS_MT_PRESSURE      00000030
    [    4711.280000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
    [    4711.290000] /dev/input/event2: EV_ABS       ABS_MT_SLOT          00000000
    [    4711.290000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   ffffffff
    [    4711.290000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
    [    4711.300000] /dev/input/event2: EV_ABS       ABS_MT_SLOT          00000001
    [    4711.300000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   ffffffff
    [    4711.300000] /dev/input/event2: EV_KEY       BTN_TOUCH            UP
    [    4711.300000] /dev/input/event2: EV_KEY       BTN_TOOL_FINGER      UP
    [    4711.300000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
    """

  /// The same as `getevent -p` then `getevent -t /dev/input/event2`: hex numbers, no device prefix.
  static let numeric = """
    add device 1: /dev/input/event2
      bus:      0000
      vendor    0000
      product   0000
      version   0000
      name:     "test_touchscreen"
      location: ""
      id:       ""
      version:  1.0.1
      events:
        KEY (0001): 0145  014a
        ABS (0003): 002f  : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0
                    0030  : value 0, min 0, max 255, fuzz 0, flat 0, resolution 0
                    0035  : value 0, min 0, max 1079, fuzz 0, flat 0, resolution 0
                    0036  : value 0, min 0, max 2399, fuzz 0, flat 0, resolution 0
                    0039  : value 0, min 0, max 65535, fuzz 0, flat 0, resolution 0
                    003a  : value 0, min 0, max 255, fuzz 0, flat 0, resolution 0
      input props:
        <none>
    [    4711.250000] 0003 0039 00000101
    [    4711.250000] 0003 0035 0000012c
    [    4711.250000] 0003 0036 00000384
    [    4711.250000] 0003 0030 00000006
    [    4711.250000] 0003 003a 0000002a
    [    4711.250000] 0001 014a 00000001
    [    4711.250000] 0001 0145 00000001
    [    4711.250000] 0004 0005 00000000
    [    4711.250000] 0000 0000 00000000
    [    4711.260000] 0003 002f 00000001
    [    4711.260000] 0003 0039 00000102
    [    4711.260000] 0003 0035 00000258
    [    4711.260000] 0003 0036 000005dc
    [    4711.260000] 0000 0000 00000000
    [    4711.270000] 0003 002f 00000000
    [    4711.270000] 0003 0035 0000010e
    [    4711.270000] 0003 0036 00000366
    [    4711.270000] 0003 002f 00000001
    [    4711.270000] 0003 0035 00000276
    [    4711.270000] 0003 0036 000005fa
    [    4711.270000] 0000 0000 00000000
    [    4711.280000] 0003 0036 00000618
    [    4711.280000] 0003 003a 00000030
    [    4711.280000] 0000 0000 00000000
    [    4711.290000] 0003 002f 00000000
    [    4711.290000] 0003 0039 ffffffff
    [    4711.290000] 0000 0000 00000000
    [    4711.300000] 0003 002f 00000001
    [    4711.300000] 0003 0039 ffffffff
    [    4711.300000] 0001 014a 00000000
    [    4711.300000] 0001 0145 00000000
    [    4711.300000] 0000 0000 00000000
    """

  /// The labelled log's event lines alone, without its header and its device prefixes.
  static var labelledEventsOnly: String {
    labelled.split(separator: "\n").filter { $0.hasPrefix("[") }
      .map { String($0).replacing("/dev/input/event2: ", with: "") }.joined(separator: "\n")
  }
}
