import Foundation

/// What stampcam accepts as input: which loaders, how damaged a file may be, and where inputs may lie.
public struct InputPolicy: Sendable, Hashable {
  /// When a damaged photo or stamp fails its job, as libvips' `fail_on`.
  public enum FailOn: String, Sendable, CaseIterable, Comparable {
    /// Render whatever can be decoded.
    case none
    /// Fail files that end early (truncated).
    case truncated
    /// Also fail corrupt data (for JPEG: bad Huffman codes, missing restart markers, stray bytes). The default.
    case error
    /// Fail on any warning of the decoder.
    case warning

    /// From the most lenient to the strictest.
    public static func < (a: FailOn, b: FailOn) -> Bool { a.vips < b.vips }

    /// libvips' VipsFailOn value.
    var vips: Int32 {
      switch self {
      case .none: return 0
      case .truncated: return 1
      case .error: return 2
      case .warning: return 3
      }
    }
  }

  /// How damaged an input may be.
  public var failOn: FailOn
  /// Let libvips use every loader it has, the ones it marks untrusted (ImageMagick, PDF, SVG, FITS...) included;
  /// otherwise only JPEG, PNG, WebP, TIFF, GIF and HEIF are read.
  public var untrustedLoaders: Bool
  /// The real path (no symlink, no `..`) of the folder every input must lie in; nil for anywhere.
  public var root: String?

  /// Creates a policy; the default reads the photo formats anywhere and fails damaged files.
  public init(failOn: FailOn = .error, untrustedLoaders: Bool = false, root: String? = nil) {
    self.failOn = failOn
    self.untrustedLoaders = untrustedLoaders
    self.root = root
  }

  /// Sets libvips' process-wide switch for its untrusted loaders to match `untrustedLoaders`.
  public func activate() throws {
    try Vips.allowUntrustedLoaders(untrustedLoaders)
  }

  /// The real path of `folder`, for `root`; an error when it is not a folder that exists.
  public static func root(_ folder: String) throws -> String {
    guard let resolved = realpath(folder, nil) else {
      throw RenderError.unreadable(path: folder, message: "input root: \(InputFile.reason(errno))")
    }
    defer { free(resolved) }
    var info = stat()
    guard stat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      throw RenderError.unreadable(path: folder, message: "input root: not a folder")
    }
    return String(cString: resolved)
  }
}
