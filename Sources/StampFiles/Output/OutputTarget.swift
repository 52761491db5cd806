import Foundation

/// Where one output goes: a name in a folder held open by descriptor.
package struct OutputTarget: Sendable {
  /// The folder the output goes in.
  package let folder: Folder
  /// The output's file name in that folder (no `/`).
  package let name: String
  /// The output as the user named it, for messages.
  package let display: String
  /// The permission bits the output may have at most (its job's photo's: a private photo stays private).
  package var modeLimit: mode_t = 0o7777

  /// A target in an open folder.
  package init(folder: Folder, name: String, display: String) {
    self.folder = folder
    self.name = name
    self.display = display
  }

  /// A target at `path`, whose folder must exist (symbolic links in it followed: the caller named it).
  package init(path: String) throws {
    let url = URL(fileURLWithPath: path)
    let parent = url.deletingLastPathComponent().path
    do {
      folder = try Folder.open(path: parent)
    } catch {
      throw FileError.write(path: path, message: "\(error)")
    }
    name = url.lastPathComponent
    display = path
  }
}
