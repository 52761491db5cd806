/// Where a job over many photos (`"photos"`) finds them: a glob over the manifest's folder or a list file.
public struct PhotoSet: Sendable, Hashable {
  /// The two sources a manifest may give.
  public enum Source: Sendable, Hashable {
    /// A glob as written (`in/**/*.jpg`), relative to the manifest's folder unless absolute; `ignoreCase` folds
    /// ASCII letters.
    case glob(String, ignoreCase: Bool)
    /// A list file as written (relative to the manifest's folder unless absolute), one photo's path a line, each
    /// relative to the list's folder unless absolute; `-` is standard input.
    case list(String)
    /// Photos named one by one (`render --script JOB PHOTO...`), each relative to the current folder unless
    /// absolute, in the order given; a manifest cannot give this form.
    case paths([String])
  }

  /// Where the photos come from.
  public var source: Source
  /// The manifest's folder (empty for the current folder), which the glob and the list file's path start from.
  public var folder: String

  /// Creates a photo set.
  public init(_ source: Source, folder: String = "") {
    self.source = source
    self.folder = folder
  }
}
