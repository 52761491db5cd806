/// The two spaces an app deals in: view points (the screen, where touches land and stamps are placed) and image
/// pixels (the photo, where `stamps`, `viewport.visible` and gesture locations are given). Each argument label says
/// which space a point is in.
extension StampSession {
  /// The image pixel shown at view point `viewPoint` (view points in, image pixels out).
  public func toImage(viewPoint: StampPoint) -> StampPoint { engine.canvas.viewport.toImage(viewPoint) }

  /// The view point where image pixel `imagePoint` is shown (image pixels in, view points out).
  public func toView(imagePoint: StampPoint) -> StampPoint { engine.canvas.viewport.toView(imagePoint) }

  /// The id of the topmost stamp under view point `viewPoint`: the one a finger landing there would move.
  public func stamp(atViewPoint viewPoint: StampPoint) -> String? {
    engine.canvas.hitTest(viewPoint).map { engine.canvas.stamps[$0].id }
  }

  /// The image point shown at view point `p`.
  @available(*, deprecated, renamed: "toImage(viewPoint:)", message: "the label says which space the point is in")
  public func toImage(_ p: StampPoint) -> StampPoint { toImage(viewPoint: p) }

  /// The view point where image point `q` is shown.
  @available(*, deprecated, renamed: "toView(imagePoint:)", message: "the label says which space the point is in")
  public func toView(_ q: StampPoint) -> StampPoint { toView(imagePoint: q) }

  /// The id of the topmost stamp under view point `p`.
  @available(*, deprecated, renamed: "stamp(atViewPoint:)", message: "the label says which space the point is in")
  public func stamp(at p: StampPoint) -> String? { stamp(atViewPoint: p) }
}
