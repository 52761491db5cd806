import Foundation
import StampSystem
import Synchronization

/// An exclusive `flock` on a lock file of a folder held open, taken without waiting, for a claim that other
/// processes (other runs, other shards on a shared folder) must see: the lock is the kernel's, so it is released
/// when its holder ends, however it ends (kill -9 included).
///
/// The lock file is removed when the lock is released, so lock files do not pile up. A process that opened the file
/// before it was removed may then hold a lock on a file no longer in the folder: `claim` checks, once it holds the
/// lock, that the name still leads to the very file it locked, and starts again when not.
package final class FileLock: Sendable {
  private let folder: Folder
  private let name: String
  /// The locked file's descriptor; nil once released.
  private let descriptor: Mutex<FileDescriptor?>

  private init(folder: Folder, name: String, descriptor: consuming FileDescriptor) {
    self.folder = folder
    self.name = name
    self.descriptor = Mutex(descriptor)
  }

  deinit { release() }

  /// Removes the lock file, then releases the lock (closing the file releases it); once.
  package func release() {
    descriptor.withLock { held in
      guard let open = held.take() else { return }
      try? folder.descriptor.remove(entry: name)
      try? open.close()
    }
  }

  /// Why a lock was not taken.
  package enum Refusal: Error, Equatable {
    /// Another open file (another process, or another claim of this one) holds it.
    case held
    /// The lock file could not be made or locked (the reason in words).
    case failed(String)
  }

  /// Locks the file `name` of `folder` (made with mode 0600 when missing, never through a symbolic link), or throws
  /// `.held` at once when another holds it.
  package static func claim(_ name: String, in folder: Folder) throws(Refusal) -> FileLock {
    // A handful of tries: each failed one means another process removed the file between our open and our lock.
    for _ in 0..<8 {
      let file: FileDescriptor
      do throws(Errno) {
        file = try folder.descriptor.open(entry: name, O_RDWR | O_CREAT | O_NOFOLLOW, mode: 0o600)
      } catch {
        throw .failed(Folder.reason(error.rawValue))
      }
      do throws(Errno) {
        try file.lockExclusively()
      } catch {
        if error == .wouldBlock { throw .held }
        throw .failed(Folder.reason(error.rawValue))
      }
      if let held = try? file.status().identity, FileIdentity.entry(in: folder, name: name) == held {
        return FileLock(folder: folder, name: name, descriptor: file)
      }
    }
    throw .held
  }
}
