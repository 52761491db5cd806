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
