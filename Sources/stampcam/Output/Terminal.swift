import Foundation
import StampSystem

/// Writes to stderr; stdout is for results (JSON, schema, help).
enum Terminal {
  static func error(_ message: String) {
    line("stampcam: error: \(message)")
  }

  static func line(_ text: String) {
    StandardStream.error.write(text + "\n")
  }

  /// True when stderr is a terminal, where a progress line that rewrites itself makes sense.
  static var isInteractive: Bool { systemIsTerminal(STDERR_FILENO) }
}
