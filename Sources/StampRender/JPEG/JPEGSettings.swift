import StampFiles

/// What the JPEG path takes from the renderer: its limits and input policy, and the compositor that draws the
/// stamps into each region (the same one the libvips path uses).
struct JPEGSettings {
  /// The job rendered: its codecs, its stop switch, its temporary files.
  let context: JobContext
  let compositor: Compositor
  let inputs: InputPolicy
  let maxPixels: Int
  let maxFileBytes: Int
  /// See `Renderer.copiesRestartIntervals`.
  let copiesRestartIntervals: Bool
  /// See `Renderer.splicesScans`.
  let splicesScans: Bool
  /// See `Renderer.spliceWindow`.
  let spliceWindow: Int
  /// See `Renderer.codesRegionsDirectly`.
  let codesRegionsDirectly: Bool
  /// See `Renderer.stripHeight`.
  let stripHeight: Int
}
