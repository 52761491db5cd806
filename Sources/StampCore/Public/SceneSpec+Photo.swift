extension SceneSpec {
  /// The view point where the screen, as it first shows the photo (fitted, at the lowest zoom, scrolled to the
  /// top-left), shows the photo point at `fraction` of the upright photo's width and height: [0.5, 0.5] is the view
  /// point over the photo's middle, wherever the letterbox puts it.
  public func initialViewPoint(atPhotoFraction fraction: StampPoint) -> StampPoint {
    initialViewport.toView(StampPoint(fraction.x * imageSize.width, fraction.y * imageSize.height))
  }

  /// View points per photo pixel as the screen first shows the photo: a length of `f` times the photo's width is
  /// `f * imageSize.width * initialViewScale` points on it.
  public var initialViewScale: Double { initialViewport.scale }

  /// The viewport as the screen first shows it.
  private var initialViewport: Viewport {
    Viewport(imageSize: imageSize, viewSize: view ?? imageSize, zoomRange: settings.zoomRange)
  }
}
