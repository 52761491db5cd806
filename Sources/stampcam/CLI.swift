/// Runs one command and returns the process's exit status; never lets a user's mistake become a crash.
enum CLI {
  static func main(_ arguments: [String]) -> Int32 {
    let status: Int32
    do {
      status = try Parser.parse(arguments).run()
    } catch {
      status = fail(error.message, status: ExitStatus.usage)
    }
    return ExitStatus.afterStreams(status)
  }

  /// Prints `stampcam: error: <message>` to stderr and returns `status`.
  static func fail(_ message: String, status: Int32) -> Int32 {
    Terminal.error(message)
    return status
  }

  /// A command's failure: the message printed and the exit status.
  struct Failure: Error {
    var message: String
    var status: Int32
  }
}
