import Foundation
import StampBatch

/// `--report FILE|-`: one JSON line per job as it ends, flushed at once so a report survives an interruption.
final class ReportWriter: @unchecked Sendable {
  private let handle: FileHandle
  private let closes: Bool
  private let lock = NSLock()

  init(path: String) throws {
    if path == "-" {
      handle = FileHandle.standardOutput
      closes = false
    } else {
      guard FileManager.default.createFile(atPath: path, contents: nil) else {
        throw UsageError(message: "\(path): cannot create the report file")
      }
      guard let opened = FileHandle(forWritingAtPath: path) else {
        throw UsageError(message: "\(path): cannot open the report file")
      }
      handle = opened
      closes = true
    }
  }

  func write(_ outcome: JobOutcome) {
    let line = outcome.jsonLine + "\n"
    lock.lock()
    defer { lock.unlock() }
    // A reader that went away (a closed pipe) must not take the batch down with it.
    try? handle.write(contentsOf: Data(line.utf8))
  }

  func close() {
    if closes { try? handle.close() }
  }
}
