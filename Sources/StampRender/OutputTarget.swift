import Foundation

/// Where one output goes: a name in a folder held open by descriptor.
public struct OutputTarget: Sendable {
  /// The folder the output goes in.
  public let folder: Folder
  /// The output's file name in that folder (no `/`).
  public let name: String
  /// The output as the user named it, for messages.
  public let display: String

  /// A target in an open folder.
  public init(folder: Folder, name: String, display: String) {
    self.folder = folder
    self.name = name
    self.display = display
  }

  /// A target at `path`, whose folder must exist (symbolic links in it followed: the caller named it).
  public init(path: String) throws {
    let url = URL(fileURLWithPath: path)
    let parent = url.deletingLastPathComponent().path
    do {
      folder = try Folder.open(path: parent)
    } catch {
      throw RenderError.write(path: path, message: "\(error)")
    }
    name = url.lastPathComponent
    display = path
  }

  /// The format the name's extension asks for.
  var format: OutputFormat? { OutputFormat(path: name) }
}

/// Names of temporary files: `.<name>.stampcam-<pid>-<8 hex digits>.tmp`, so that a later run can recognise those
/// of a run that died (kill -9) and remove them, and only them.
public enum TemporaryName {
  /// The most bytes the temporary name adds to the output's name: the leading dot, `.stampcam-`, a pid of up to
  /// ten digits, `-`, eight hex digits and `.tmp`.
  public static let overhead = 34
  /// The longest output file name (in UTF-8 bytes) whose temporary name still fits in NAME_MAX (255).
  public static let longestName = 255 - overhead

  /// A fresh temporary name for `name`, owned by this process.
  static func make(for name: String) -> String {
    let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    return "." + name + ".stampcam-\(getpid())-" + String(repeating: "0", count: 8 - random.count) + random + ".tmp"
  }

  /// The pid of the process that made `name`, when `name` is a temporary name.
  static func owner(of name: String) -> pid_t? {
    guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
    let core = name.dropLast(4)
    guard let marker = core.range(of: ".stampcam-", options: .backwards) else { return nil }
    let tail = core[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
    let hex = Set("0123456789abcdef")
    guard tail.count == 2, tail[1].count == 8, tail[1].allSatisfy(hex.contains), (1...10).contains(tail[0].count),
      tail[0].allSatisfy({ $0 >= "0" && $0 <= "9" }), let pid = pid_t(tail[0]), pid > 0
    else { return nil }
    return pid
  }
}
