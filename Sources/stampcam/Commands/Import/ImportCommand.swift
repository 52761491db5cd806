import Foundation
import StampBatch
import StampCore
import StampFiles
import StampImport
import StampManifest

/// `stampcam import`: a recorded log in, the manifest's `touches` item out.
struct ImportCommand: Subcommand {
  let options: ImportOptions

  init(_ options: ImportOptions) {
    self.options = options
  }

  /// Reads the log a line at a time and writes the touches item only when every event passes the manifest's own
  /// rules and limits (`TouchItemCheck`): nothing is written otherwise, and the error names the log's line.
  func run() -> Int32 {
    let lines = LogFile.lines(options.log)
    var check = TouchItemCheck()
    var item = TouchesJSON.Item()
    do {
      let emit: (TouchEvent, Int) throws -> Void = { event, line in
        let json = item.line(event)
        if let problem = check.problem(with: event, textBytes: json.utf8.count) {
          throw ImportError.invalid(line: line, message: "the log gives a touch event no manifest takes: \(problem)")
        }
        item.append(json)
      }
      switch options.format {
      case .getevent:
        let screen = options.screen.map { StampSize($0.width, $0.height) } ?? StampSize(1, 1)
        try GeteventImporter.parse(
          lines, screen: screen, device: options.device, axisMax: options.axisMax,
          frameInterval: options.frameInterval, emit: emit)
      case .cdp:
        try CDPImporter.parse(lines, emit: emit)
      }
    } catch {
      return CLI.fail("\(options.log): \(error)", status: ExitStatus.usage)
    }
    let json = item.text + "\n"
    guard let out = options.out else {
      StandardStream.output.write(json)
      return ExitStatus.success
    }
    do {
      try AtomicFile.write(Data(json.utf8), to: out)
    } catch {
      return CLI.fail("\(error)", status: ExitStatus.failed)
    }
    Terminal.line("\(check.events) touch events from \(options.log) written to \(out)")
    return ExitStatus.success
  }
}
