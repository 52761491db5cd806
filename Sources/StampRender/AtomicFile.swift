import Foundation

/// Files that appear whole or not at all: written to a temporary file in the target's folder, flushed to disk, then
/// renamed over the target. Every output stampcam writes goes through here.
public enum AtomicFile {
  /// Writes `data` to `path` atomically.
  public static func write(_ data: Data, to path: String) throws {
    try write(to: path) { temporary in
      do {
        try data.write(to: URL(fileURLWithPath: temporary))
      } catch {
        throw RenderError.write(path: path, message: (error as NSError).localizedDescription)
      }
    }
  }

  /// Lets `fill` write a temporary file in `path`'s folder, flushes it to disk and renames it over `path`; on any
  /// failure nothing is left behind and `path` is untouched.
  static func write(to path: String, _ fill: (String) throws -> Void) throws {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    let temporary =
      folder + "/." + url.lastPathComponent + ".stampcam-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
    TemporaryFiles.shared.add(temporary)
    defer { TemporaryFiles.shared.remove(temporary) }
    do {
      try fill(temporary)
      try limitMode(temporary)
      try flush(temporary)
      guard rename(temporary, path) == 0 else {
        throw RenderError.write(path: path, message: String(cString: strerror(errno)))
      }
    } catch {
      unlink(temporary)
      throw error
    }
  }

  /// Takes from the file's mode (the umask's default) every permission its job's photo does not have.
  private static func limitMode(_ path: String) throws {
    guard let limit = JobControl.current?.outputModeLimit, limit & 0o777 != 0o777 else { return }
    var info = stat()
    guard stat(path, &info) == 0, chmod(path, info.st_mode & 0o777 & limit) == 0 else {
      throw RenderError.write(path: path, message: String(cString: strerror(errno)))
    }
  }

  private static func flush(_ path: String) throws {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw RenderError.write(path: path, message: String(cString: strerror(errno))) }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw RenderError.write(path: path, message: String(cString: strerror(errno))) }
  }
}
