extension RecordCommand {
  static let help = Help(
    about: """
      Opens a job in a web page where you make its gestures with your fingers (or the mouse) and see, live, what
      the batch will render; Save writes the job back into MANIFEST with its recorded `touches` items.

      It opens the job --job ID of MANIFEST (its photo, stamps, view, and its gestures replayed so far), or with
      --base PHOTO and --stamp IMAGE a new job, and prints the page's URL. On the page: touch drags, pinches and
      turns stamps and the view; with a mouse, drag is one finger, Shift+drag adds a second finger mirrored about
      where the drag began, double-click is a double tap. The page shows the fingers, each gesture as recognized,
      the selected stamp's scale and rotation (and when the scale range clamps them), and the zoom. Undo drops the
      last gesture item and replays the rest; Render renders the job at full resolution as `render` would and
      shows it; Save replaces only this job's "gestures" in MANIFEST (a new job is added after the last one), by an
      atomic rename, and nothing else in the file changes. A JSON Lines manifest is changed on the job's own line.
      Each page open on it records on its own (two pages never mix their fingers); "unsaved changes" shows until
      Save. It runs until Ctrl-C in the terminal, Save first (exit status 130; 143 for SIGTERM; a Save in flight
      gets 3 s to finish).

      A job over many photos ("photos": a glob or a list) opens on its first photo in the order render takes them,
      or on the photo --job JOBID/PHOTO names. A bar on the page steps through its photos (previous, next, or a
      photo's number; "photo 3 of 120: in/b/x.jpg"): each step replays the gestures recorded so far on that photo
      as render would, stamps placed with "photoCenter"/"photoWidth" resolved against it, so you see one script
      land on every photo. Render renders the photo shown as render renders its job; Save writes the gestures once,
      into the job as written ("photos", the output template and the placements unchanged). The recorder holds the
      photos' paths, not their pixels: up to 64 MiB of paths (about 500,000 photos at 60-byte paths); photos past
      that are counted but cannot be shown.

      The URL holds a random 128-bit token that every request must carry; requests that name another host or come
      from another page are refused before their body is read, bodies are JSON of at most 1 MB, a request must
      arrive within 5 s, and only the job's own photo and stamps are served. It listens on loopback (127.0.0.1)
      unless --listen says otherwise.
      """,
    after: """
      EXAMPLES
        stampcam record Examples/manifest.json --job dragonfly
        stampcam record bulk.json --job wm                  # a job over many photos: step through them on the page
        stampcam record bulk.json --job wm/in/b/x.jpg       # ... opened on that photo
        stampcam record mine.json --base photos/beach.jpg --stamp stamps/star.png --stamp stamps/badge.png
        stampcam record mine.json --listen 0.0.0.0:8080     # then open the URL on a phone, with this machine's address
      """)
}
