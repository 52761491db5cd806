/// `stampcam --help`, `stampcam help [COMMAND]` and `COMMAND --help`: the overview, or a command's help.
struct HelpCommand: Runnable {
  /// A command's name, or nil for the overview.
  var topic: String?

  func run() -> Int32 {
    StandardStream.output.write(Usage.text(for: topic) + "\n")
    return ExitStatus.success
  }

  /// The topic of `help WORD`: a command of the table, or none.
  static func topic(_ word: String?) throws(UsageError) -> String? {
    guard let word else { return nil }
    guard Usage.commands.contains(word) else {
      throw UsageError(message: "no help for '\(word)' (commands: \(Usage.commands.joined(separator: ", ")))")
    }
    return word
  }

  /// The overview's last synopsis line: the help and the version, which no table entry declares.
  static let synopsis = "stampcam help [COMMAND] | --help | --version"

  static let title = "stampcam: replay stamp-camera gestures onto full-resolution photos, in bulk."

  /// The overview after its synopsis.
  static let overview = """
    A manifest (JSON, or JSON Lines with one job per line) lists jobs: a base photo, stamps with alpha placed on it,
    and a gesture script (taps, double taps, two-finger taps, pinch/rotate, drags, or recorded touches) as made on a
    phone's screen. stampcam replays the gestures and composites the stamps onto the photo with libvips.
    `stampcam record` serves a page where a job's gestures are made by hand, live, and saved into the manifest.

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
      stampcam record Examples/manifest.json --job dragonfly   # make gestures in a browser, then Save

    EXIT STATUS
      0 every job written (or the command did what it was asked); 1 one or more jobs failed (the others are
      written); 2 usage error or invalid manifest (nothing written); 3 standard output could not be written
      (closed, full, or a pipe nobody reads): "stampcam: error: cannot write to standard output: <reason>" on
      stderr, even when jobs failed too; 4 standard error could not be written, though all else succeeded;
      128 + N stopped by signal N (130 for Ctrl-C, 143 for SIGTERM). A standard stream that is closed when
      stampcam starts is held (stdin on /dev/null, stdout and stderr on a pipe nobody reads), so that no file
      stampcam opens takes its number; writing to it is then the failure above.

    Run 'stampcam help COMMAND' for a command's options.
    """
}

extension Command {
  static func help(topic: String?) -> Command { Command(HelpCommand(topic: topic)) }
}
