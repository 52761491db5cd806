import CVips
import CVipsGlue
import Foundation
import StampCore
import StampFiles

/// A picture of what happened, drawn over a rendered photo: finger paths (a colour per finger, a dot where it
/// came down, a ring where it lifted), the points where gestures were recognized with their kind, and each stamp's
/// final outline. Drawn as SVG by libvips (librsvg), composited over the output.
package struct Overlay: Sendable, Hashable {
  /// Finger paths in image pixels.
  package var traces: [TouchTrace]
  /// Recognized gestures, `at` in image pixels.
  package var gestures: [RecognizedGesture]
  /// Final stamps.
  package var stamps: [PlacedStamp]

  /// Creates an overlay.
  package init(traces: [TouchTrace], gestures: [RecognizedGesture], stamps: [PlacedStamp]) {
    self.traces = traces
    self.gestures = gestures
    self.stamps = stamps
  }

  /// Colours for fingers, in the order they came down within a gesture item; gesture marks are magenta, stamp outlines yellow.
  static let fingerColours = ["#00e5ff", "#ff9100", "#76ff03", "#ff1744", "#2979ff", "#ffea00"]
  static let markColour = "#ff00ff"
  static let outlineColour = "#ffff00"
  /// The rings around a label's glyphs: the dark one shows on light photos, the light one on dark photos.
  static let darkRing = "#000000"
  static let lightRing = "#ffffff"

  /// The SVG for an image of `width` x `height`; line widths grow with the image so they read at any size.
  /// Finger paths are simplified (see `simplified`) and the whole kept under `SVGBudget.limit` bytes, so the
  /// overlay always renders: what does not fit is left out and counted in a note.
  func svg(width: Int, height: Int) -> String {
    let line = max(2, Double(max(width, height)) / 500)
    var out = SVGBudget(
      opening: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\">")
    for stamp in stamps {
      let corners = Self.corners(of: stamp).map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
      out.add(
        "<polygon points=\"\(corners)\" fill=\"none\" stroke=\"\(Self.outlineColour)\" stroke-width=\"\(n(line))\"/>")
    }
    var fingers: [Int: Int] = [:]  // item -> fingers seen so far in it
    for trace in traces {
      // A colour per finger, in the order fingers came down within their gesture item.
      let finger = fingers[trace.item, default: 0]
      fingers[trace.item] = finger + 1
      guard let first = trace.points.first, let last = trace.points.last else { continue }
      let colour = Self.fingerColours[finger % Self.fingerColours.count]
      let path = Self.simplified(trace.points).map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
      var element = "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"\(n(line))\""
      element += " stroke-linejoin=\"round\" stroke-linecap=\"round\"/>"
      element += "<circle cx=\"\(n(first.x))\" cy=\"\(n(first.y))\" r=\"\(n(line * 2.5))\" fill=\"\(colour)\"/>"
      if trace.lifted {
        element += "<circle cx=\"\(n(last.x))\" cy=\"\(n(last.y))\" r=\"\(n(line * 5))\" fill=\"none\""
        element += " stroke=\"\(colour)\" stroke-width=\"\(n(line))\"/>"
      }
      out.add(element)
    }
    for gesture in gestures {
      let (x, y, r) = (gesture.at.x, gesture.at.y, line * 3)
      var element = "<rect x=\"\(n(x - r))\" y=\"\(n(y - r))\" width=\"\(n(2 * r))\" height=\"\(n(2 * r))\""
      element += " fill=\"\(Self.markColour)\" transform=\"rotate(45 \(n(x)) \(n(y)))\"/>"
      out.add(element + label(gesture.kind.rawValue, x: x + 2 * r, y: y - 2 * r, size: line * 9, line: line))
    }
    if out.left > 0 {
      out.close(label("\(out.left) marks not drawn", x: line * 4, y: line * 13, size: line * 9, line: line))
    }
    return out.text + "</svg>"
  }

  /// A label readable on any photo: the glyphs in the mark colour inside a dark ring inside a light ring, drawn as
  /// the same text three times (widest stroke first), so that one of the rings contrasts with whatever is beneath.
  func label(_ text: String, x: Double, y: Double, size: Double, line: Double) -> String {
    let start = "<text x=\"\(n(x))\" y=\"\(n(y))\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"\(n(size))\""
    let rings = [(Self.lightRing, line * 4), (Self.darkRing, line * 2)].map { colour, width in
      start + " fill=\"none\" stroke=\"\(colour)\" stroke-width=\"\(n(width))\""
        + " stroke-linejoin=\"round\">\(text)</text>"
    }
    return rings.joined() + start + " fill=\"\(Self.markColour)\">\(text)</text>"
  }

  /// The stamp's rotated, scaled rectangle, clockwise from its top-left corner.
  static func corners(of stamp: PlacedStamp) -> [StampPoint] {
    let radians = stamp.rotation * .pi / 180
    let (c, s) = (cos(radians), sin(radians))
    let (hw, hh) = (stamp.size.width * stamp.scale / 2, stamp.size.height * stamp.scale / 2)
    return [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)].map { (u, v) in
      StampPoint(stamp.center.x + c * u - s * v, stamp.center.y + s * u + c * v)
    }
  }

  func n(_ value: Double) -> String { String(format: "%.2f", value) }
}

extension Renderer {
  /// Stages `plan` with `overlay` drawn over it for `target`; the output is left staged for the caller to commit.
  package func stageOverlay(_ plan: RenderPlan, overlay: Overlay, to target: OutputTarget, quality: Int? = nil) throws
    -> StagedFile
  {
    guard let format = target.format else { throw RenderError.unsupportedFormat(path: target.display) }
    let composed = try compose(plan)
    return try composed.writing { picture in
      try stage(picture, overlay: overlay, base: plan.base, to: target, format: format, quality: quality)
    }
  }

  /// `overlay` drawn over `picture` (the composed photo of `base`) and staged for `target`.
  private func stage(
    _ picture: Image, overlay: Overlay, base: String, to target: OutputTarget, format: OutputFormat, quality: Int?
  ) throws -> StagedFile {
    let svg = overlay.svg(width: picture.width, height: picture.height)
    var out: UnsafeMutablePointer<VipsImage>?
    guard Vips.call({ scv_svg(svg, svg.utf8.count, &out) }) == 0, let drawn = out else {
      throw RenderError.operation(path: target.display, operation: "draw overlay", message: Vips.takeError())
    }
    let layer = Image(owning: drawn, source: base)
    var pointers: [UnsafeMutablePointer<VipsImage>?] = [picture.pointer, layer.pointer]
    var composed: UnsafeMutablePointer<VipsImage>?
    let status = pointers.withUnsafeMutableBufferPointer { buffer in
      Vips.call { scv_composite(buffer.baseAddress, 2, Int32(VIPS_BLEND_MODE_OVER.rawValue), [0], [0], 0, &composed) }
    }
    guard status == 0, let result = composed else {
      throw RenderError.operation(path: target.display, operation: "draw overlay", message: Vips.takeError())
    }
    let flat = withExtendedLifetime((picture, layer)) { Image(owning: result, source: base, failOn: picture.failOn) }
    let colour = try flat.derive("extract colour") { scv_extract_bands($0, &$1, 0, Int32(min(3, flat.bands))) }
    let eight = try colour.derive("cast") { scv_cast($0, &$1, VIPS_FORMAT_UCHAR) }
    return try ImageWriter.stage(eight, to: target, format: format, quality: quality ?? 90, in: context)
  }
}
