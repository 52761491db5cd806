extension ImportCommand {
  static let help = Help(
    about: """
      Turns a recorded touch log into the manifest's `touches` gesture item, {"touches": [{t, id, phase, x, y}]},
      printed to stdout or written to FILE; paste it into a job's "gestures" list.

      getevent: the output of `adb shell getevent -lt` (labelled) or `getevent -t` (numeric) on Android, or of
      `getevent -l` / `getevent` without timestamps together with --frame-interval; the kernel's multi-touch
      protocol B (slots) or A. Device coordinates are scaled to the screen in points from the axis ranges of a
      `getevent -lp` or `getevent -p` header in the same log, or from --axis-max. Touch ids are numbered 0, 1, 2...
      in the order fingers touch down; t is seconds from the first touch. Each SYN_REPORT that changes a touch is one
      frame; one that changes none gives no frame (the fingers rest), but without timestamps it still counts: the
      k-th report after the first frame's is at t = k x S. Shell prompts (`OnePlus3T:/ $`), the echoed getevent
      command, blank lines, CRLF line ends and trailing spaces are accepted.
      cdp: Chrome DevTools Protocol `Input.dispatchTouchEvent` messages, one JSON object per line.
      """,
    after: """
      EXAMPLES
        adb shell getevent -lp /dev/input/event2 > pinch.log; adb shell getevent -lt /dev/input/event2 >> pinch.log
        stampcam import getevent pinch.log --screen 412x915 --out pinch.json
        stampcam import getevent pasted.log --screen 412x915 --frame-interval 0.008
        stampcam import cdp Examples/traces/pinch.cdp.jsonl
      """)
}
