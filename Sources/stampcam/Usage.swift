import StampBatch

/// The help texts, written by hand like a man page.
enum Usage {
  static let commands = ["render", "validate", "explain", "import", "schema"]

  static let version = "stampcam \(StampcamVersion.current)"

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
      stampcam validate MANIFEST [--max-pixels N] [--input-root DIR] [--allow-untrusted-loaders]
      stampcam explain MANIFEST [--job ID] [--max-pixels N] [--input-root DIR] [--allow-untrusted-loaders]
      stampcam import getevent LOG --screen WxH [--device NAME] [--axis-max XxY] [--frame-interval S]
                               [--out FILE]
      stampcam import cdp LOG [--out FILE]
      stampcam schema
      stampcam help [COMMAND] | --help | --version

    A manifest (JSON, or JSON Lines with one job per line) lists jobs: a base photo, stamps with alpha placed on it,
    and a gesture script (taps, double taps, two-finger taps, pinch/rotate, drags, or recorded touches) as made on a
    phone's screen. stampcam replays the gestures and composites the stamps onto the photo with libvips.

    GESTURES (each threshold is a manifest setting)
      A tap is one finger lifted within tapMaxDuration (0.5 s) that moved at most tapSlop (10 points) from where
      it landed: exactly 10 is still a tap, a slop of 0 means not moving at all. A second tap beginning at most
      doubleTapInterval (0.35 s) after and doubleTapDistance (40 points) from the first makes a double tap. A
      single tap fires doubleTapInterval after it ends, or as soon as a touch that began near it cannot be a tap
      (it drags past the slop, holds past tapMaxDuration, or is joined by a finger).

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
    into place, so a failed or interrupted job never leaves a half-written file; a job's outputs (output,
    viewOutput, overlay) are renamed together, all or none. Outputs stay inside DIR: it is opened once and every
    folder under it is opened (or made) without following a symbolic link. Before anything is written, render
    refuses (status 2, both jobs named) any output, view, overlay or report that is the same file as an input of
    any job, the manifest or another output, whatever its name (hard links, symbolic links and '..' included).
    Output file names may have at most 212 bytes (room for the temporary file's suffix). Output formats follow the
    extension: .jpg/.jpeg, .png, .webp, .tif/.tiff. A JPEG photo written as JPEG with no "quality" setting keeps
    its own compression: only the 8x8 blocks the stamps touch are re-encoded (with the photo's quantization), every
    other block is copied bit for bit and the EXIF orientation tag is kept; otherwise JPEG and WebP are written at
    the job's quality (90 by default) with upright pixels. Metadata is stripped (a shared photo must not say where
    it was taken), except the ICC profile.

    The bit-for-bit path takes every JPEG libjpeg reads as coefficients: baseline or progressive, any chroma
    subsampling, grey, restart markers, optimized Huffman tables, arithmetic coding. The output keeps the photo's
    coding (progressive stays progressive, the restart interval stays, optimized tables are optimized again); a
    grey photo stays grey, a colour stamp drawn in its luminance. CMYK/YCCK, 12-bit, a zero in a quantization table
    or data libjpeg finds damaged fall back to pixels at quality 90, keeping 4:2:0 or 4:4:4 and progressive coding;
    the report names the reason and a line after the summary counts them. Photo files over 512 MB (or 5 bytes a
    pixel of --max-pixels, when that is more) are refused before they are read.

    OPTIONS
      --out DIR          folder for the outputs (created if missing); job outputs are paths under it
      --jobs N           jobs in flight at once (default: the number of cores)
      --max-pixels N     photos or stamps with more pixels fail their job, before decoding (default 100000000)
      --shard I/N        render only the jobs whose index (from 0) is I modulo N; the N shards together render
                         every job once, with byte-identical results (for Kubernetes Indexed Jobs, Slurm arrays,
                         GNU parallel)
      --resume           skip jobs whose outputs were made from the same job, input files (size and
                         modification time) and stampcam version, as recorded in DIR/.stampcam/; render the
                         others again
      --report FILE|-    write one JSON line per job (id, status ok/failed/skipped, outputs, error, seconds,
                         path lossless/restart-intervals/pixels, fallback: why a JPEG was re-encoded from pixels:
                         colour-space, precision, sampling, quantization, or "damaged: " and libjpeg's message;
                         with --resume, why it was skipped or rendered: "resume": "skipped: up to date",
                         "redone: job changed", "redone: input changed", ...); it lists exactly the outputs on
                         disk. If it cannot be written (a full disk), the job's outputs are removed, no later job
                         starts and the exit status is 1
      --quiet, -q        no progress, no summary and no fallback count on stderr
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
    (130 for Ctrl-C, 143 for SIGTERM). A second signal removes the temporary files and exits at once. Temporary files
    are named .<name>.stampcam-<machine>-<pid>-<hex>.tmp; those a killed run left are removed by the next run that
    writes in their folder: once their process is gone on this machine, after a day untouched for other machines.

    A job that fails says where and why, on stderr and in the report's "error", e.g.
    photos.json:41: job "bridge-07": photos/bridge.jpg: truncated JPEG: the manifest, the line where the job
    starts (its line in JSON Lines), the job's id, then the file at fault (an input as the manifest's folder and
    the manifest name it, an output by its final name) and what is wrong with it.

    EXAMPLES
      stampcam render Examples/manifest.json --out out/examples
      stampcam render shoot.json --out=renders --jobs=1 --report=renders/report.jsonl
      stampcam render jobs.jsonl --out /data/out --shard "$JOB_COMPLETION_INDEX/8" --resume --quiet
    """

  static let validate = """
    USAGE
      stampcam validate MANIFEST [--max-pixels N] [--input-root DIR] [--allow-untrusted-loaders]

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
    same as there; defaults: 100000000 pixels, anywhere, photo formats only).
    Only render finds what needs pixels or --out: a photo damaged past its header, an output that would
    overwrite an input or leave --out through a symbolic link, a failed write. Those fail their job (exit status
    1); the other jobs are written.
    Exit status 0 when the manifest is valid, 2 otherwise.

    EXAMPLE
      stampcam validate jobs.jsonl --max-pixels 50000000 --input-root photos
    """

  static let explain = """
    USAGE
      stampcam explain MANIFEST [--job ID] [--max-pixels N] [--input-root DIR] [--allow-untrusted-loaders]

    Replays the gestures of every job (or just job ID) without decoding any photo, and prints JSON:
      {"jobs": [{"id", "gestures": [{"kind", "t", "at", "target"}],
                 "stamps": [{"id", "center": [x, y], "size": [w, h], "scale", "rotation"}],
                 "viewport": {"zoom", "visible": [x, y, w, h]}}]}
    Positions and sizes are image pixels; rotation is degrees, clockwise positive; `size` is before `scale`.
    A job that cannot be replayed (an unreadable photo, a gesture on a covered stamp) is listed as
    {"id", "error"} in its place and named on stderr; the other jobs are described all the same, and the exit
    status is 1. Exit status 0 when every job is described, 2 for an invalid manifest.
    --max-pixels, --input-root and --allow-untrusted-loaders read the photos and stamps as render reads them with
    the same options (defaults: 100000000 pixels, anywhere, photo formats only).
    """

  static let importLog = """
    USAGE
      stampcam import getevent LOG --screen WxH [--device NAME] [--axis-max XxY] [--frame-interval S]
                               [--out FILE]
      stampcam import cdp LOG [--out FILE]

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

    OPTIONS
      --screen WxH       the screen in points (getevent), e.g. 390x844; each side at most 1000000
      --device NAME      which device of a log that holds several: /dev/input/event2, event2 or its name
      --axis-max XxY     the touch axes' maxima when the log has no -p/-lp header, e.g. 1079x2399
      --frame-interval S seconds between two SYN_REPORTs for a log without timestamps, above 0 and at most 1:
                         0.016667 for a 60 Hz panel, 0.008 for 120 Hz (ignored when the log has timestamps)
      --out FILE         write the item to FILE (atomically) instead of stdout

    EXAMPLES
      adb shell getevent -lp /dev/input/event2 > pinch.log; adb shell getevent -lt /dev/input/event2 >> pinch.log
      stampcam import getevent pinch.log --screen 412x915 --out pinch.json
      stampcam import getevent pasted.log --screen 412x915 --frame-interval 0.008
      stampcam import cdp Examples/traces/pinch.cdp.jsonl
    """

  static let schema = """
    USAGE
      stampcam schema

    Prints the manifest's JSON Schema (draft 2020-12).
    """
}
