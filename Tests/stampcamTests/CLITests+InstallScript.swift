import Foundation
import Testing

/// The tarball's `install` (scripts/install, copied beside `bin/stampcam` by scripts/package), run as the README's
/// "A binary tarball" block says, on an unpacked tarball made here from the built binary.
@Suite("The tarball's install script, as the README runs it")
struct InstallScriptTests {
  /// The fenced block after "**A binary tarball.**" in the README, its lines without their comments.
  static func tarballCommands() throws -> [String] {
    let readme = try String(
      contentsOf: ScaleOutRecipeTests.repository.appendingPathComponent("README.md"), encoding: .utf8)
    let section = try #require(readme.range(of: "**A binary tarball.**"), "no tarball section in the README")
    let open = try #require(readme[section.upperBound...].range(of: "```sh\n"))
    let close = try #require(readme[open.upperBound...].range(of: "```"))
    return readme[open.upperBound..<close.lowerBound].split(separator: "\n").map { line in
      String(line.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces)
    }
  }

  /// `stampcam-VERSION-linux-ARCH/` as scripts/package lays it out (bin/stampcam and install), its name the one the
  /// README's commands use.
  static func unpackedTarball(_ cli: CommandRunner) throws -> String {
    let commands = try tarballCommands()
    let install = try #require(commands.first { $0.hasSuffix("/install") }, "\(commands)")
    let folder = String(install.dropLast("/install".count))
    try FileManager.default.createDirectory(atPath: cli.path(folder + "/bin"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: CommandRunner.executable.path, toPath: cli.path(folder + "/bin/stampcam"))
    try FileManager.default.copyItem(
      atPath: ScaleOutRecipeTests.repository.appendingPathComponent("scripts/install").path,
      toPath: cli.path(folder + "/install"))
    return folder
  }

  /// Runs `command` with `sh -c` in the folder, with HOME there and a PATH of the system's folders only (a minimal
  /// image has no sudo).
  static func shell(_ cli: CommandRunner, _ command: String) throws -> CommandResult {
    try cli.shell(command, environment: ["HOME": cli.url.path, "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
  }

  /// The README's commands run in a root shell of a minimal image, which has no sudo: none goes through sudo (the
  /// install line did), and the install line's own variant for a user, `install ~/.local`, installs a stampcam
  /// that runs.
  @Test func theReadmesTarballCommandsNeedNoSudo() throws {
    let commands = try Self.tarballCommands()
    #expect(commands.count == 3, "\(commands)")
    for command in commands {
      #expect(!command.hasPrefix("sudo "), "\(command)")
    }
    let cli = try CommandRunner()
    defer { cli.remove() }
    let folder = try Self.unpackedTarball(cli)
    let install = try #require(commands.last)
    #expect(install == folder + "/install")
    let result = try Self.shell(cli, install + " ~/.local")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("installed \(cli.url.path)/.local/bin/stampcam (stampcam "), "\(result.stderr)")
    let installed = try Self.shell(cli, "~/.local/bin/stampcam --version")
    #expect(installed.status == 0 && installed.stdout.hasPrefix("stampcam "), "\(installed.stderr)")
  }

  /// A PREFIX it cannot write: the error suggests running the script as it was run, never `scripts/install`, which
  /// is not in a tarball.
  @Test func theInstallScriptsErrorNamesItselfAsItWasRun() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    let folder = try Self.unpackedTarball(cli)
    // A file where the prefix needs a folder: unwritable even for root, which the tests may run as.
    try cli.write("blocked", "")
    let result = try Self.shell(cli, folder + "/install blocked/prefix")
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "stampcam: error: cannot write blocked/prefix/bin/stampcam (run it as root, or give a PREFIX you own, e.g. "
          + folder + "/install ~/.local)"), "\(result.stderr)")
    #expect(!result.stderr.contains("scripts/install"), "\(result.stderr)")
  }
}
