/// Replays a job's gestures and returns the final scene. (Interim: places stamps only; gestures come with the
/// gesture engine.)
public func replay(_ spec: SceneSpec) throws -> SceneResult {
  let view = spec.view ?? spec.imageSize
  let fit = min(view.width / spec.imageSize.width, view.height / spec.imageSize.height, 1)
  let zoom = spec.settings.zoomRange.lowerBound
  let k = fit * zoom
  let inset = Point(
    max((view.width - spec.imageSize.width * k) / 2, 0), max((view.height - spec.imageSize.height * k) / 2, 0))
  let stamps = spec.stamps.map { s -> PlacedStamp in
    let w = (s.width ?? s.pixelSize.width) / k
    let h = w * s.pixelSize.height / s.pixelSize.width
    return PlacedStamp(
      id: s.id, center: Point((s.center.x - inset.x) / k, (s.center.y - inset.y) / k), size: Size(w, h),
      scale: s.scale, rotation: s.rotation)
  }
  let visible = Rect(x: -inset.x / k, y: -inset.y / k, width: view.width / k, height: view.height / k)
  return SceneResult(stamps: stamps, viewport: ViewportState(zoom: zoom, visible: visible, viewSize: view), gestures: [])
}
