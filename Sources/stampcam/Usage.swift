/// The help texts, written by hand like a man page.
enum Usage {
  static let commands = ["render", "validate", "explain", "import", "schema"]

  static let version = "stampcam 0.1.0"

  static func text(for topic: String?) -> String {
    switch topic {
    case "render": return render
    case "validate": return validate
    case "explain": return explain
    case "schema": return schema
    case "import": return importLog
    default: return overview
    }
  }

  static let overview = """
    stampcam: replay stamp-camera gestures onto full-resolution photos, in bulk.

    USAGE
      stampcam render MANIFEST --out DIR [--jobs N] [--shard I/N] [--resume] [--report FILE|-]
                      [--quiet] [--overlay] [--max-pixels N] [--input-root DIR] [--fail-on LEVEL]
                      [--job-timeout SECONDS] [--stamp-cache-mb N] [--allow-untrusted-loaders]
      stampcam validate MANIFEST
      stampcam explain MANIFEST [--job ID]
      stampcam import getevent LOG --screen WxH [--device NAME] [--axis-max XxY] [--out FILE]
      stampcam import cdp LOG [--out FILE]
      stampcam schema
      stampcam help [COMMAND] | --help | --version

    A manifest (JSON, or JSON Lines with one job per line) lists jobs: a base photo, stamps with alpha placed on it,
    and a gesture script (taps, double taps, two-finger taps, pinch/rotate, drags, or recorded touches) as made on a
    phone's screen. stampcam replays the gestures and composites the stamps onto the photo with libvips.

    EXAMPLES
      stampcam render Examples/manifest.json --out out/
      stampcam render jobs.jsonl --out /srv/renders --jobs 2 --quiet
      stampcam explain Examples/manifest.json --job dragonfly

    EXIT STATUS
      0 every job written; 1 one or more jobs failed (the others are written); 2 usage error or invalid manifest
      (nothing written).

    Run 'stampcam help COMMAND' for a command's options.
    """

  static let render = """
    USAGE
      stampcam render MANIFEST --out DIR [--jobs N] [--shard I/N] [--resume] [--report FILE|-]
                      [--quiet] [--overlay] [--max-pixels N] [--input-root DIR] [--fail-on LEVEL]
                      [--job-timeout SECONDS] [--stamp-cache-mb N] [--allow-untrusted-loaders]

    Renders every job of MANIFEST into DIR. Each output is written to a temporary file in its folder and renamed
    into place, so a failed or interrupted job never leaves a half-written file. Output formats follow the
    extension: .jpg/.jpeg, .png, .webp, .tif/.tiff. A JPEG photo written as JPEG with no "quality" setting keeps
    its own compression: only the 8x8 blocks the stamps touch are re-encoded (with the photo's quantization), every
    other block is copied bit for bit and the EXIF orientation tag is kept; otherwise JPEG and WebP are written at
    the job's quality (90 by default) with upright pixels. Metadata is stripped (a shared photo must not say where
    it was taken), except the ICC profile.

    OPTIONS
      --out DIR          folder for the outputs (created if missing); job outputs are paths under it
      --jobs N           jobs in flight at once (default: the number of cores)
      --max-pixels N     photos or stamps with more pixels fail their job, before decoding (default 100000000)
      --shard I/N        render only the jobs whose index (from 0) is I modulo N; the N shards together render
                         every job once, with byte-identical results (for Kubernetes Indexed Jobs, Slurm arrays,
                         GNU parallel)
      --resume           skip jobs whose outputs all exist already (outputs appear only when complete)
      --report FILE|-    write one JSON line per job (id, status ok/failed/skipped, outputs, error, seconds)
      --quiet, -q        no progress and no summary on stderr
      --overlay          also write <output>.overlay.<ext> for every job: the finger paths (a colour per
                         finger, a dot where it came down, a ring where it lifted), the points where gestures
                         were recognized with their kind, and each stamp's final outline (a job can ask for
                         it alone with "overlay": true)

    INPUTS (see "Running on untrusted manifests" in the README)
      Photos, stamps and the manifest must be regular files (a FIFO or a device is refused before it is read);
      each input is opened once and its header and pixels are read from that one open file. Names are only
      names: "photo.jpg[shrink=8]" is a file called that. Only JPEG, PNG, WebP, TIFF, GIF and HEIF are read.
      --input-root DIR   every photo and stamp must lie inside DIR by its real path (symlinks and '..'
                         resolved); a manifest naming one outside is refused whole, before anything is written
      --fail-on LEVEL    when a damaged photo or stamp fails its job: none (render what decodes), truncated
                         (files cut short), error (also corrupt data, such as JPEG entropy errors; the
                         default) or warning (any decoder warning)
      --job-timeout S    cancel a job still running after S seconds (default 300; 0: no limit); it fails
                         alone and leaves no file
      --stamp-cache-mb N keep up to N MB of decoded stamps between jobs, least recently used dropped first
                         (default 128)
      --allow-untrusted-loaders
                         let libvips read every format it knows (ImageMagick, PDF, SVG, FITS, raw...):
                         only for input you trust

    Ctrl-C (SIGINT), SIGTERM or SIGHUP stops taking jobs and gives those in flight 3 s to finish, then stops them
    (they fail and leave no file); the report so far is written and the exit status is 128 + the signal's number
    (130 for Ctrl-C, 143 for SIGTERM). A second signal removes the temporary files and exits at once.

    EXAMPLES
      stampcam render Examples/manifest.json --out out/examples
      stampcam render shoot.json --out=renders --jobs=1 --report=renders/report.jsonl
      stampcam render jobs.jsonl --out /data/out --shard "$JOB_COMPLETION_INDEX/8" --resume --quiet
    """

  static let validate = """
    USAGE
      stampcam validate MANIFEST

    Checks MANIFEST without rendering anything and prints every error at once, each with the file, the line and the
    JSON path, e.g.
      manifest.json:12: jobs[3].stamps[0].centre: unknown key (did you mean "center"?)
    Exit status 0 when the manifest is valid, 2 otherwise.
    """

  static let explain = """
    USAGE
      stampcam explain MANIFEST [--job ID]

    Replays the gestures of every job (or just job ID) without decoding any photo, and prints JSON:
      {"jobs": [{"id", "gestures": [{"kind", "t", "at", "target"}],
                 "stamps": [{"id", "center": [x, y], "size": [w, h], "scale", "rotation"}],
                 "viewport": {"zoom", "visible": [x, y, w, h]}}]}
    Positions and sizes are image pixels; rotation is degrees, clockwise positive; `size` is before `scale`.
    """

  static let importLog = """
    USAGE
      stampcam import getevent LOG --screen WxH [--device NAME] [--axis-max XxY] [--out FILE]
      stampcam import cdp LOG [--out FILE]

    Turns a recorded touch log into the manifest's `touches` gesture item, {"touches": [{t, id, phase, x, y}]},
    printed to stdout or written to FILE; paste it into a job's "gestures" list.

    getevent: the output of `adb shell getevent -lt` (labelled) or `getevent -t` (numeric) on Android, the
    kernel's multi-touch protocol B (slots) or A. Device coordinates are scaled to the screen in points from the
    axis ranges of a `getevent -lp` header in the same log, or from --axis-max. Touch ids are numbered 0, 1, 2...
    in the order fingers touch down; t is seconds from the first touch; one frame per SYN_REPORT.
    cdp: Chrome DevTools Protocol `Input.dispatchTouchEvent` messages, one JSON object per line.

    OPTIONS
      --screen WxH       the screen in points (getevent), e.g. 390x844
      --device NAME      which device of a log that holds several: /dev/input/event2, event2 or its name
      --axis-max XxY     the touch axes' maxima when the log has no -lp header, e.g. 1079x2399
      --out FILE         write the item to FILE (atomically) instead of stdout

    EXAMPLES
      adb shell getevent -lp /dev/input/event2 > pinch.log; adb shell getevent -lt /dev/input/event2 >> pinch.log
      stampcam import getevent pinch.log --screen 412x915 --out pinch.json
      stampcam import cdp Examples/traces/pinch.cdp.jsonl
    """

  static let schema = """
    USAGE
      stampcam schema

    Prints the manifest's JSON Schema (draft 2020-12).
    """
}
