extension ValidateCommand {
  static let help = Help(
    about: """
      Checks MANIFEST without rendering anything and prints every error at once, each with the file, the line and the
      JSON path, e.g.
        manifest.json:12: jobs[3].stamps[0].centre: unknown key (did you mean "center"?)
        manifest.json:40: jobs[9].gestures[0]: stamp "a" is covered by the stamps above it (...)

      It checks everything render checks short of decoding pixels:
        - the JSON, keys, types and ranges (lengths, scales and durations at least 0.001, coordinates within
          +-1000000, at most 100000 steps), ids, stamp names, touch order, output paths and formats, a
          viewOutput of at most 100000000 pixels;
        - that every photo and stamp exists, is readable and (with --input-root) lies inside the input root;
        - for each job whose inputs exist, its images' headers (in a format render reads, at most --max-pixels
          pixels) and its gestures replayed exactly as render replays them: a gesture that cannot be played, a
          stamp drawn over 1000000 pixels across.
      Give it the --max-pixels, --input-root and --allow-untrusted-loaders the render will have (they mean the
      same as there).
      Only render finds what needs pixels or --out: a photo damaged past its header, an output that would
      overwrite an input or leave --out through a symbolic link, a failed write. Those fail their job (exit status
      1); the other jobs are written.
      Exit status 0 when the manifest is valid, 2 otherwise.
      """,
    after: """
      EXAMPLE
        stampcam validate jobs.jsonl --max-pixels 50000000 --input-root photos
      """)
}
