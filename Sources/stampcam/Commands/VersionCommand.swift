/// `stampcam --version`, `-V` or `version`.
struct VersionCommand: Runnable {
  func run() -> Int32 {
    StandardStream.output.write(Usage.version + "\n")
    return ExitStatus.success
  }
}

extension Command {
  static let version = Command(VersionCommand())
}
