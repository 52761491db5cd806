extension RenderCommand {
  static let help = Help(
    about: """
      Renders every job of MANIFEST into DIR. Each output is written to a temporary file in its folder and renamed
      into place, so a failed or interrupted job never leaves a half-written file; a job's outputs (output,
      viewOutput, overlay) are renamed together, all or none. Outputs stay inside DIR: it is opened once and every
      folder under it is opened (or made) without following a symbolic link. Before anything is written, render
      refuses (status 2, both jobs named) any output, view, overlay or report that is the same file as an input of
      any job, the manifest or another output, whatever its name (hard links, symbolic links and '..' included).
      Output file names may have at most 212 bytes (room for the temporary file's suffix). Output formats follow the
      extension: .jpg/.jpeg, .png, .webp, .tif/.tiff, and where this machine's libvips writes them .avif (AV1),
      .heic/.heif (HEVC) and .jxl (JPEG XL); validate and render refuse one it cannot write, naming the missing
      encoder, before anything is written. A JPEG photo written as JPEG with no "quality" setting keeps its own
      compression: only the 8x8 blocks the stamps touch are re-encoded (with the photo's quantization), every other
      block is copied bit for bit and the EXIF orientation tag is kept; otherwise JPEG, WebP, AVIF, HEIC and JPEG XL
      are written at the job's quality (90 by default) with upright pixels, AVIF and HEIC 8 bits a sample and at
      most 16384 pixels a side. Metadata is stripped (a shared photo must not say where
      it was taken), except the ICC profile.

      The bit-for-bit path takes every JPEG libjpeg reads as coefficients: baseline or progressive, any chroma
      subsampling, grey, restart markers, optimized Huffman tables, arithmetic coding. The output keeps the photo's
      coding (progressive stays progressive, the restart interval stays, optimized tables are optimized again); a
      grey photo stays grey, a colour stamp drawn in its luminance. CMYK/YCCK, a zero in a quantization table or
      data libjpeg finds damaged fall back to pixels at quality 90, keeping 4:2:0 or 4:4:4 and progressive coding;
      the report names the reason and a line after the summary counts them. A 12-bit JPEG is not read at all (its
      job fails, and validate refuses it): Debian's libjpeg reads 8-bit JPEGs only. Photo files over 512 MB (or 5
      bytes a pixel of --max-pixels, when that is more) are refused before they are read.

      One script over many photos: a job with "photos" in place of "base" (a glob, "in/**/*.jpg", or a list file,
      {"list": "photos.txt"}, "-" for standard input) makes one job for each photo, in a fixed order (folders depth
      first, names sorted by their bytes), with the id JOBID/PHOTO and its output from the template ({dir}, {stem},
      {ext}, {name}, {index}; default "{dir}/{stem}.jpg"). The photos found by the check before anything is written
      are the ones rendered: one added later is not, one removed fails its job. A symbolic link the glob finds
      is opened only when --input-root holds its target (otherwise its job fails alone). --shard splits the
      photos' jobs like any others. `render --script JOB PHOTO... --out DIR` applies the one job of the manifest
      JOB to the photos named (each PHOTO in place of MANIFEST), writing {dir}/{stem}.jpg of each under DIR.

      MANIFEST - (or /dev/stdin) reads the manifest from standard input: JSON Lines when its first non-blank line is
      a whole JSON object without "jobs", one JSON document otherwise. It is read once, to its end, into a file in
      DIR/.stampcam whose name is removed as soon as it is made (nothing is left behind, whatever ends the run), and
      the check and the render read that file; a JSON document may have 64 MiB, a JSON Lines line as much. Errors
      name it "-" and the line; relative paths start from the current folder; a photos' list of "-" is refused.
      """,
    intros: [
      inputsHeading: """
      Photos, stamps and the manifest must be regular files (a FIFO or a device is refused before it is read);
      each input is opened once and its header and pixels are read from that one open file. Names are only
      names: "photo.jpg[shrink=8]" is a file called that. Only JPEG, PNG, WebP, TIFF, GIF and HEIF are read.
      """
    ],
    after: """
      Ctrl-C (SIGINT), SIGTERM or SIGHUP stops taking jobs and gives those in flight 3 s to finish, then stops them
      (they fail and leave no file); the report so far is written and the exit status is 128 + the signal's number
      (130 for Ctrl-C, 143 for SIGTERM). A second signal removes the temporary files and exits at once. Temporary files
      are named .<name>.stampcam-<machine>-<pid>-<hex>.tmp; those a killed run left are removed by the next run that
      writes in their folder: once their process is gone on this machine, after a day untouched for other machines.

      One writer per output: a job claims each output (a lock file in DIR/.stampcam/, which stampcam makes 0700 and
      never reaches through a symbolic link) while it writes it and its record; a job of another run (another
      manifest or shard into DIR) that wants an output claimed at that moment fails and writes nothing there.

      A job that fails says where and why, on stderr and in the report's "error", e.g.
      photos.json:41: job "bridge-07": photos/bridge.jpg: truncated JPEG: the manifest, the line where the job
      starts (its line in JSON Lines), the job's id, then the file at fault (an input as the manifest's folder and
      the manifest name it, an output by its final name) and what is wrong with it.

      EXAMPLES
        stampcam render Examples/manifest.json --out out/examples
        stampcam render shoot.json --out=renders --jobs=1 --report=renders/report.jsonl
        stampcam render /data/job.json --out /data/out --shard "$JOB_COMPLETION_INDEX/8" --resume --quiet \\
          --report "/data/reports/$JOB_COMPLETION_INDEX.$HOSTNAME.jsonl"   # Examples/pipelines' Kubernetes Job
        stampcam render --script recorded.json photos/*.jpg --out stamped
        find /data/in -name '*.jpg' | stampcam render bulk.json --out /data/out   # "photos": {"list": "-"}
        generate-jobs | stampcam render - --out /data/out --events /data/out/events.jsonl
      """)
}
