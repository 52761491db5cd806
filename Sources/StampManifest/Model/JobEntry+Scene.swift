import StampCore

extension JobEntry {
  /// The gesture engine's input for this job, once the renderer has read the photo's and stamps' headers.
  ///
  /// - Parameters:
  ///   - imageSize: the base photo's upright size in pixels.
  ///   - stampPixelSizes: each stamp image's size in pixels, keyed by `StampEntry.image` (the resolved path). Swift
  ///     compares the keys canonically, so two names differing only in Unicode normalization (two files on Linux)
  ///     are one key here: give the sizes in the stamps' order, with `scene(imageSize:stampPixelSizes:)` taking an
  ///     array, when that can happen.
  /// - Returns: the scene spec: the job's view, stamps (with their pixel sizes), gestures and settings.
  /// - Throws: `ManifestError` naming each stamp whose image has no size in `stampPixelSizes`.
  public func scene(imageSize: StampSize, stampPixelSizes: [String: StampSize]) throws(ManifestError) -> SceneSpec {
    try scene(imageSize: imageSize, stampPixelSizes: stamps.map { stampPixelSizes[$0.image] })
  }

  /// The gesture engine's input for this job, with each stamp image's size in pixels given in the order of
  /// `stamps` (nil where unknown).
  ///
  /// - Throws: `ManifestError` naming each stamp whose size is nil or missing.
  public func scene(imageSize: StampSize, stampPixelSizes: [StampSize?]) throws(ManifestError) -> SceneSpec {
    var scene = SceneSpec(imageSize: imageSize, view: view, stamps: [], gestures: gestures, settings: settings)
    var specs: [StampSpec] = []
    var missing: [Diagnostic] = []
    for (i, stamp) in stamps.enumerated() {
      guard let pixelSize = i < stampPixelSizes.count ? stampPixelSizes[i] : nil else {
        missing.append(
          Diagnostic(
            file: stamp.image, path: "jobs[\(index)].stamps[\(i)].image",
            message: "no pixel size known for the stamp image"))
        continue
      }
      // A stamp placed in the photo's terms lands where the screen first shows that part of this photo.
      let center = stamp.photoCenter.map(scene.initialViewPoint(atPhotoFraction:)) ?? stamp.center
      let width = stamp.photoWidth.map { $0 * imageSize.width * scene.initialViewScale } ?? stamp.width
      specs.append(
        StampSpec(
          id: stamp.id, center: center, width: width, pixelSize: pixelSize, scale: stamp.scale,
          rotation: stamp.rotation, locked: stamp.locked))
    }
    if !missing.isEmpty { throw ManifestError(missing) }
    scene.stamps = specs
    return scene
  }
}
