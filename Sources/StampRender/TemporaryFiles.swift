import Foundation

/// The temporary files being written right now, so that an interrupted run can remove them before it exits.
public final class TemporaryFiles: @unchecked Sendable {
  /// The process's registry.
  public static let shared = TemporaryFiles()

  private let lock = NSLock()
  private var paths: Set<String> = []

  func add(_ path: String) {
    lock.lock()
    paths.insert(path)
    lock.unlock()
  }

  func remove(_ path: String) {
    lock.lock()
    paths.remove(path)
    lock.unlock()
  }

  /// The files in progress.
  public var inProgress: Set<String> {
    lock.lock()
    defer { lock.unlock() }
    return paths
  }

  /// Deletes every temporary file in progress; for a process about to exit on a signal.
  public func removeAll() {
    lock.lock()
    defer { lock.unlock() }
    for path in paths { unlink(path) }
    paths.removeAll()
  }
}
