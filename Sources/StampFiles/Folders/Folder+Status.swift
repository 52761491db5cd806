import StampSystem

extension FileIdentity {
  /// The identity of the entry `name` of `folder` itself (a symbolic link's own, not its target's); nil when there
  /// is none.
  package static func entry(in folder: Folder, name: String) -> FileIdentity? {
    (try? folder.descriptor.status(ofEntry: name))?.identity
  }
}

extension FileVersion {
  /// The version of the entry `name` of `folder` itself (a symbolic link's own, not its target's); nil when there
  /// is none.
  package static func entry(in folder: Folder, name: String) -> FileVersion? {
    (try? folder.descriptor.status(ofEntry: name))?.version
  }
}
