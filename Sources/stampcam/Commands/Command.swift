/// What the user asked for, parsed from the command line: one of the `CommandTable`'s commands with its values, the
/// help or the version.
struct Command: Equatable, Sendable, CustomStringConvertible {
  let runnable: any Runnable

  init(_ runnable: some Runnable) {
    self.runnable = runnable
  }

  func run() -> Int32 {
    runnable.run()
  }

  var description: String { runnable.description }

  static func == (a: Command, b: Command) -> Bool {
    a.runnable.isEqual(to: b.runnable)
  }
}
