/// The module's one error: a manifest that cannot be used, with every problem found in it.
///
/// Decoding does not stop at the first problem; `diagnostics` holds them all, in document order, so that a user
/// fixes a manifest in one round. Its description is one diagnostic per line.
public struct ManifestError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Every problem found, in document order; never empty.
  public var diagnostics: [Diagnostic]

  /// Creates an error from its diagnostics.
  public init(_ diagnostics: [Diagnostic]) {
    self.diagnostics = diagnostics
  }

  /// Creates an error with a single diagnostic.
  public init(file: String, line: Int? = nil, column: Int? = nil, path: String = "", message: String) {
    self.init([Diagnostic(file: file, line: line, column: column, path: path, message: message)])
  }

  public var description: String {
    diagnostics.map(\.description).joined(separator: "\n")
  }
}
