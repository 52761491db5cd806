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
    let host = options.address == "0.0.0.0" || options.address == "::" ? "ADDRESS" : options.address
    if options.listens {
      Terminal.line(
        "stampcam: warning: listening on \(options.address) port \(server.access.port): anyone on the network who has the "
          + "URL can see this job's photo and stamps, and change and save this job"
          + (host == "ADDRESS" ? "; put this machine's address in place of ADDRESS" : ""))
    }
    StandardStream.output.write("open \(server.url(host: host))\n")
    // The server stops (answering the requests in flight first) when it goes, after the signal.
    let received = withExtendedLifetime(server) { systemWaitForSignal(signals) }
    return ExitStatus.signal(received)
  }
}
