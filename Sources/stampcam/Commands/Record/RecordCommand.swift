import Foundation
import StampCore
import StampRecord
import StampSystem

/// `stampcam record`: a page to make a job's gestures on, served until Ctrl-C.
struct RecordCommand: Subcommand {
  let options: RecordOptions

  init(_ options: RecordOptions) {
    self.options = options
  }

  func run() -> Int32 {
    guard options.base != nil || options.stamps.isEmpty else {
      return CLI.fail(
        "record: --stamp goes with --base (a new job); to record into a job, leave both out", status: ExitStatus.usage)
    }
    var settings = RecorderApp.Settings()
    settings.maxPixels = options.inputs.maxPixels
    // For tests only (scripts/test-recorder): a small event cap, so that reaching it takes seconds, not 200000
    // events. Not an option, so that no user is offered a way to lift the cap.
    if let text = ProcessInfo.processInfo.environment["STAMPCAM_TEST_RECORD_MAX_EVENTS"], let cap = Int(text),
      (1...Recording.defaultMaxEvents).contains(cap)
    {
      settings.maxEvents = cap
    }
    do {
      settings.inputs = try InputOptions.policy(
        root: options.inputs.inputRoot, untrustedLoaders: options.inputs.allowUntrustedLoaders)
    } catch {
      return CLI.fail(error.message, status: error.status)
    }
    let newJob = options.base.map {
      RecorderLaunch.NewJob(
        base: $0, stamps: options.stamps, view: StampSize(options.view.width, options.view.height))
    }
    // The signals are waited for below; blocked before the server's threads start, so that they inherit it.
    let signals = systemBlockSignals([SIGINT, SIGTERM])
    let server: RecorderServer
    do {
      let app = try RecorderLaunch(manifest: options.manifest, job: options.job, newJob: newJob, settings: settings)
        .open()
      server = try RecorderServer(app, address: options.address, port: options.port)
    } catch {
      return CLI.fail("\(error)", status: ExitStatus.usage)
    }
    let urls = server.urls(listening: options.address)
    if options.listens {
      Terminal.line(Self.listenNote(address: options.address, port: server.access.port))
    }
    for url in urls { StandardStream.output.write("open \(url)\n") }
    Terminal.line("stampcam: when done, Save on the page, then press Ctrl-C here to stop the recorder")
    let received = systemWaitForSignal(signals)
    // Every connection is closed at once; a Save or Render in flight gets the grace to finish, and the process ends
    // after it whatever the server's threads are doing.
    let stopped = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      server.server.stop()
      stopped.signal()
    }
    _ = stopped.wait(timeout: .now() + Self.grace)
    return ExitStatus.signal(received)
  }

  /// Seconds a request in flight has to finish after Ctrl-C or SIGTERM.
  static let grace = 3.0

  /// What --listen exposes: the network for an address others can reach, this machine alone for a loopback one.
  static func listenNote(address: String, port: UInt16) -> String {
    let loopback = address == "::1" || address.hasPrefix("127.")
    if loopback {
      return "stampcam: listening on \(address) port \(port), a loopback address: only this machine can open the page"
    }
    let whom =
      address == "0.0.0.0" || address == "::"
      ? "anyone on the network who can reach this machine" : "anyone who can reach \(address)"
    return "stampcam: warning: listening on \(address) port \(port): \(whom) and has the URL can see this job's photo "
      + "and stamps, and change and save this job"
  }
}
