import StampSystem

/// A manifest opened once for several passes (validated, then rendered): each pass reads this very file from its
/// first byte, never another renamed over its path, and stops with a failure as soon as the file's version (device,
/// inode, size, modification and change times) differs from the one seen at the open: a manifest edited in place,
/// or replaced (which moves the old file's change time), is never rendered from lines that were not validated. An
/// edit of the same size within one tick of the file system's clock after its last write is beyond a version's sight.
final class HeldFile: Sendable {
  /// The open file; each pass reads a duplicate of it with `pread`, at an offset of its own.
  let descriptor: FileDescriptor
  /// The version when it was opened.
  let version: FileVersion

  private init(descriptor: consuming FileDescriptor, version: FileVersion) {
    self.descriptor = descriptor
    self.version = version
  }

  /// Opens `path` as `ManifestFile.open` does (a regular file only), or returns why it cannot be read.
  static func open(_ path: String) -> (HeldFile?, String?) {
    do throws(ReadFailure) {
      let file = try ManifestFile.openRegularFile(path)
      do throws(Errno) {
        let version = try file.status().version
        return (HeldFile(descriptor: file, version: version), nil)
      } catch {
        return (nil, error.description)
      }
    } catch {
      return (nil, error.reason)
    }
  }

  /// Holds a duplicate of the open regular file `file` (which the caller keeps), read from its first byte at every
  /// pass: a spooled manifest, whose file has no name.
  static func holding(_ file: borrowing FileDescriptor) -> (HeldFile?, String?) {
    do throws(Errno) {
      let copy = try file.duplicate()
      let version = try copy.status().version
      return (HeldFile(descriptor: copy, version: version), nil)
    } catch {
      return (nil, error.description)
    }
  }

  /// The reason a pass stops, or nil while the file is the version opened.
  func change() -> String? {
    (try? descriptor.status())?.version == version
      ? nil
      : "the file changed after it was opened for validation (size, modification or change time); nothing more is read from it"
  }
}
