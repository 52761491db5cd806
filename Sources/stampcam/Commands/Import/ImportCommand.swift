import Foundation
import StampBatch
import StampCore
import StampFiles
import StampImport

/// `stampcam import`: a recorded log in, the manifest's `touches` item out.
struct ImportCommand: Subcommand {
  let options: ImportOptions

  init(_ options: ImportOptions) {
    self.options = options
  }

  func run() -> Int32 {
    let text: String
    do {
      text = try String(contentsOfFile: options.log, encoding: .utf8)
    } catch {
      return CLI.fail("\(options.log): cannot read the log (\((error as NSError).localizedDescription))", status: 2)
    }
    let events: [TouchEvent]
    do {
      switch options.format {
      case .getevent:
        let screen = options.screen.map { StampSize($0.width, $0.height) } ?? StampSize(1, 1)
        events = try GeteventImporter.parse(
          text, screen: screen, device: options.device, axisMax: options.axisMax,
          frameInterval: options.frameInterval)
      case .cdp:
        events = try CDPImporter.parse(text)
      }
    } catch {
      return CLI.fail("\(options.log): \(error)", status: 2)
    }
    let json = TouchesJSON.render(events) + "\n"
    guard let out = options.out else {
      StandardStream.output.write(json)
      return ExitStatus.success
    }
    do {
      try AtomicFile.write(Data(json.utf8), to: out)
    } catch {
      return CLI.fail("\(error)", status: 1)
    }
    Terminal.line("\(events.count) touch events from \(options.log) written to \(out)")
    return 0
  }
}
