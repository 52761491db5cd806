import StampCore

extension RecordCommand {
  static let name = "record"
  static let forms = [
    Form(
      operand: "MANIFEST", options: [job, base, stamp, view, listen] + InputOptions.options(at: \RecordOptions.inputs),
      start: RecordOptions(), setOperand: { $0.manifest = $1 })
  ]

  static let job = Option<RecordOptions>.value(
    "--job", "ID",
    "the job to record into (needed when the manifest has several), or one photo's job of a job over many photos "
      + "(JOBID/PHOTO: opened on that photo); with --base, the new job's id",
    default: "the manifest's only job; with --base, 'recorded'"
  ) { $0.job = $1 }

  static let base = Option<RecordOptions>.value(
    "--base", "PHOTO", "start a new job on PHOTO, added to the manifest (which need not exist yet) by the first save"
  ) { $0.base = $1 }

  static let stamp = Option<RecordOptions>.value(
    "--stamp", "IMAGE", "a stamp of the new job (repeat it for more), a quarter of the screen wide, in a row"
  ) { $0.stamps.append($1) }

  static let view = Option<RecordOptions>.value(
    "--view", "WxH", "the new job's screen in points, each side 16 to 100000", default: "390x844"
  ) { (options, text) throws(UsageError) in
    let (w, h) = try OptionValue.pair(text, option: "--view")
    guard w <= 100_000, h <= 100_000 else { throw UsageError(message: "--view sides must be at most 100000 points") }
    guard w >= Limits.minViewSide, h >= Limits.minViewSide else {
      throw UsageError(
        message: "--view sides must be at least \(Int(Limits.minViewSide)) points (a screen too small to draw on), "
          + "not '\(text)'")
    }
    options.view = (w, h)
  }

  static let listen = Option<RecordOptions>.value(
    "--listen", "ADDR:PORT",
    "listen on ADDR:PORT (e.g. 0.0.0.0:8080, or [::]:8080 for IPv6 and IPv4 alike) so a phone or tablet on the "
      + "network can open the page (one URL is printed per address of this machine); anyone who has the printed URL "
      + "can then see the job's images and change and save the job",
    default: "127.0.0.1 on a free port"
  ) { (options, text) throws(UsageError) in
    guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
      throw UsageError(message: "--listen needs ADDR:PORT (e.g. 0.0.0.0:8080 or [::]:8080), not '\(text)'")
    }
    var address = String(text[..<colon])
    if address.hasPrefix("[") && address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
    guard !address.isEmpty else { throw UsageError(message: "--listen needs an address before the port: '\(text)'") }
    options.address = address
    options.port = port
    options.listens = true
  }
}

extension Command {
  static func record(_ options: RecordOptions) -> Command { Command(RecordCommand(options)) }
}
