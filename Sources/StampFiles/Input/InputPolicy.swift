import Foundation
import StampSystem

/// What stampcam accepts as input: which loaders, how damaged a file may be, and where inputs may lie.
package struct InputPolicy: Sendable, Hashable {
  /// When a damaged photo or stamp fails its job, as libvips' `fail_on`.
  package enum FailOn: String, Sendable, CaseIterable, Comparable {
    /// Render whatever can be decoded.
    case none
    /// Fail files that end early (truncated).
    case truncated
    /// Also fail corrupt data (for JPEG: bad Huffman codes, missing restart markers, stray bytes). The default.
    case error
    /// Fail on any warning of the decoder.
    case warning

    /// From the most lenient to the strictest.
    package static func < (a: FailOn, b: FailOn) -> Bool { a.rank < b.rank }

    /// The levels' order, as libvips' VipsFailOn numbers them.
    package var rank: Int32 {
      switch self {
      case .none: return 0
      case .truncated: return 1
      case .error: return 2
      case .warning: return 3
      }
    }
  }

  /// How damaged an input may be.
  package var failOn: FailOn
  /// Let libvips use every loader it has, the ones it marks untrusted (ImageMagick, PDF, SVG, FITS...) included;
  /// otherwise only JPEG, PNG, WebP, TIFF, GIF and HEIF are read.
  package var untrustedLoaders: Bool
  /// The real path (no symlink, no `..`) of the folder every input must lie in; nil for anywhere.
  package var root: String?

  /// Creates a policy; the default reads the photo formats anywhere and fails damaged files.
  package init(failOn: FailOn = .error, untrustedLoaders: Bool = false, root: String? = nil) {
    self.failOn = failOn
    self.untrustedLoaders = untrustedLoaders
    self.root = root
  }

  /// The real path of `folder`, for `root`; an error when it is not a folder that exists.
  package static func root(_ folder: String) throws -> String {
    let resolved: String
    do throws(Errno) {
      resolved = try FileSystem.realPath(folder)
    } catch {
      throw FileError.unreadable(path: folder, message: "input root: \(error)")
    }
    guard (try? FileStatus(path: resolved))?.kind == .folder else {
      throw FileError.unreadable(path: folder, message: "input root: not a folder")
    }
    return resolved
  }
}
