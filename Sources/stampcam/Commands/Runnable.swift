/// Something the command line can do once parsed: a subcommand with its values, the help, the version.
protocol Runnable: Equatable, Sendable, CustomStringConvertible {
  /// Does it, and returns the exit status (see `ExitStatus`).
  func run() -> Int32
}

extension Runnable {
  var description: String { String(reflecting: self) }

  /// Equal to `other` when it is the same kind of command with the same values.
  func isEqual(to other: any Runnable) -> Bool {
    (other as? Self) == self
  }
}
