import StampSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Android)
  import Android
#endif

/// One photo of a job over many photos: where it is relative to the photos' root (what `{dir}`, `{stem}` and the
/// job's id are made of) and the path it is opened at.
package struct Photo: Sendable, Hashable {
  /// The photo's path relative to the glob's fixed part or the list's folder, normalized ("2024/a.jpg"); a listed
  /// absolute path loses its leading "/" ("/data/a.jpg" -> "data/a.jpg").
  package var relative: String
  /// The path the photo is opened at, from the current folder.
  package var path: String

  /// A photo.
  package init(relative: String, path: String) {
    self.relative = relative
    self.path = path
  }
}

/// Why a job's photos could not all be found: a folder of the glob that could not be read, a list file that could not
/// be read, a line of it that names no photo. Told after the job's `photos` in its diagnostic.
package struct PhotoFailure: Error, Hashable, CustomStringConvertible {
  /// The whole message: "in/raw: cannot read the folder (permission denied)", "photos.txt:12: ...".
  package var message: String

  /// The message.
  package var description: String { message }

  /// A failure told by `message`.
  package init(_ message: String) {
    self.message = message
  }
}

/// The photos of one job over many photos, one at a time, in their fixed order.
package protocol PhotoSource: AnyObject {
  /// The next photo, or why one could not be told; nil at the end.
  func next() -> Result<Photo, PhotoFailure>?
}

/// The photos a glob matches (see `PhotoWalk` for the order and what is and is not followed).
package final class GlobPhotos: PhotoSource {
  private var walk: PhotoWalk
  private let root: String

  /// The photos `glob` matches under `folder` (the manifest's folder; "" for the current folder).
  package init(_ glob: PhotoGlob, in folder: String) {
    walk = PhotoWalk(glob, in: folder)
    root = PhotoWalk.join(folder, glob.root)
  }

  package func next() -> Result<Photo, PhotoFailure>? {
    switch walk.next() {
    case nil: return nil
    case .failure(let failure):
      return .failure(PhotoFailure("\(failure.folder): cannot read the folder (\(failure.reason))"))
    case .success(let relative):
      let path = root == "." ? relative : PathRules.resolve(relative, in: root)
      return .success(Photo(relative: relative, path: path))
    }
  }
}

/// The photos a list file names, one path a line (blank lines skipped, a final `\r` dropped), each relative to the
/// list's folder unless absolute; the list `-` is standard input, read once, with paths relative to the current
/// folder. Lines stream: memory holds one line.
package final class ListPhotos: PhotoSource {
  private let lines: LineSource?
  private var openFailure: PhotoFailure?
  /// The list's name in messages ("photos.txt", "standard input").
  private let name: String
  /// The folder relative lines start from.
  private let folder: String

  /// The photos listed in the file `list` (as written in the manifest, resolved against `manifestFolder`), lines of
  /// at most `maxLine` bytes.
  package init(_ list: String, manifestFolder: String, maxLine: Int = PathRules.pathMax) {
    if list == "-" {
      name = "standard input"
      folder = ""
      do throws(Errno) {
        lines = LineSource(adopting: try FileDescriptor.duplicating(STDIN_FILENO), maxLine: maxLine)
      } catch {
        lines = nil
        openFailure = PhotoFailure("standard input: cannot be read (\(error))")
      }
      return
    }
    let path = PathRules.resolve(list, in: manifestFolder)
    name = path
    folder = PathRules.folder(of: path)
    let (file, reason) = ManifestFile.open(path)
    lines = file.map { LineSource(input: $0, maxLine: maxLine) }
    openFailure = reason.map { PhotoFailure("\(path): cannot read the list (\($0))") }
  }

  package func next() -> Result<Photo, PhotoFailure>? {
    if let failure = openFailure {
      openFailure = nil
      return .failure(failure)
    }
    while let event = lines?.next() {
      switch event {
      case .failure(let reason): return .failure(PhotoFailure("\(name): cannot read the list (\(reason))"))
      case .tooLong(let number):
        return .failure(PhotoFailure("\(name):\(number): a line longer than \(PathRules.pathMax) bytes, not a path"))
      case .line(let number, var bytes):
        if bytes.last == 0x0D { bytes.removeLast() }
        if bytes.isEmpty { continue }
        guard let line = String(validating: bytes, as: UTF8.self) else {
          return .failure(PhotoFailure("\(name):\(number): a path that is not UTF-8"))
        }
        if bytes.contains(0) { return .failure(PhotoFailure("\(name):\(number): a path with a NUL byte")) }
        let relative = PathRules.normalize(line)
        if relative.isEmpty {
          return .failure(PhotoFailure("\(name):\(number): \"\(line)\" names a folder, not a photo"))
        }
        return .success(Photo(relative: relative, path: PathRules.resolve(line, in: folder)))
      }
    }
    return nil
  }
}

/// Photos named one by one, relative to the current folder unless absolute (`PhotoSet.Source.paths`).
package final class NamedPhotos: PhotoSource {
  private var paths: ArraySlice<String>

  /// The photos at `paths`, in that order.
  package init(_ paths: [String]) {
    self.paths = paths[...]
  }

  package func next() -> Result<Photo, PhotoFailure>? {
    guard let path = paths.popFirst() else { return nil }
    let relative = PathRules.normalize(path)
    if relative.isEmpty { return .failure(PhotoFailure("\"\(path)\" names a folder, not a photo")) }
    return .success(Photo(relative: relative, path: path))
  }
}

extension PhotoSet {
  /// The photos of `job`'s set (`photos()`); a job of one photo has none.
  package static func photos(of job: JobEntry) -> Result<any PhotoSource, PhotoFailure> {
    job.photos?.photos() ?? .failure(PhotoFailure("job \"\(job.id)\" has one photo, not a set of them"))
  }

  /// The photos of the set, read from where the manifest says (nothing is read until the first `next()`); nil with
  /// the reason when the glob is not one (the decoder refuses such a manifest first).
  package func photos() -> Result<any PhotoSource, PhotoFailure> {
    switch source {
    case .list(let list): return .success(ListPhotos(list, manifestFolder: folder))
    case .paths(let paths): return .success(NamedPhotos(paths))
    case .glob(let pattern, let ignoreCase):
      do {
        return .success(GlobPhotos(try PhotoGlob(pattern, ignoreCase: ignoreCase), in: folder))
      } catch {
        return .failure(PhotoFailure("\"\(pattern)\": \(error.message)"))
      }
    }
  }

  /// How the set is told in messages: the glob or the list as written.
  package var written: String {
    switch source {
    case .glob(let pattern, _): return "\"\(pattern)\""
    case .list(let list): return list == "-" ? "the list on standard input" : "the list \"\(list)\""
    case .paths: return "the photos named on the command line"
    }
  }
}
