import StampFiles

extension InputPolicy {
  /// Sets libvips' process-wide switch for its untrusted loaders to match `untrustedLoaders`.
  package func activate() throws {
    try Vips.allowUntrustedLoaders(untrustedLoaders)
  }
}

extension InputPolicy.FailOn {
  /// libvips' VipsFailOn value.
  var vips: Int32 { rank }
}
