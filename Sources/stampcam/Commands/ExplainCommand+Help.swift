extension ExplainCommand {
  static let help = Help(
    about: """
      Replays the gestures of every job (or just job ID) without decoding any photo, and prints JSON:
        {"jobs": [{"id", "gestures": [{"kind", "t", "at", "target"}],
                   "stamps": [{"id", "center": [x, y], "size": [w, h], "scale", "rotation"}],
                   "viewport": {"zoom", "visible": [x, y, w, h]}}]}
      Positions and sizes are image pixels; rotation is degrees, clockwise positive; `size` is before `scale`.
      A job that cannot be replayed (an unreadable photo, a gesture on a covered stamp) is listed as
      {"id", "error"} in its place and named on stderr; the other jobs are described all the same, and the exit
      status is 1. Exit status 0 when every job is described, 2 for an invalid manifest.
      --max-pixels, --input-root and --allow-untrusted-loaders read the photos and stamps as render reads them with
      the same options.
      """)
}
