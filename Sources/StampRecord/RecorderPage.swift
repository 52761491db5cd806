/// The page: one HTML file with its script and style, built into the binary (SwiftPM's `embedInCode`), no
/// framework, nothing fetched from elsewhere.
enum RecorderPage {
  static let html: [UInt8] = PackageResources.recorder_html

  /// The page may load its own images and call its own server, and nothing else; it runs only its inline script
  /// and cannot be framed.
  static let contentSecurityPolicy =
    "default-src 'none'; img-src 'self' blob:; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}
