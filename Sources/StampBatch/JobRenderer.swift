import Foundation
import StampCore
import StampManifest
import StampRender

/// Turns one manifest job into files: headers -> scene -> gestures replayed -> render plan -> pixels.
struct JobRenderer: Sendable {
  let renderer: Renderer
  let paths: OutputPaths?

  /// The outputs the job writes, relative to the output folder, in the order they are written.
  static func outputs(of job: JobEntry) -> [String] {
    [job.output] + (job.viewOutput.map { [$0] } ?? [])
  }

  /// Renders the job and returns the outputs written (relative paths).
  func render(_ job: JobEntry) throws -> [String] {
    let (scene, _) = try replay(job) { try renderer.cache.pixelSize(of: $0) }
    let plan = RenderPlan(
      base: job.base,
      stamps: zip(job.stamps, scene.stamps).map { RenderPlan.Stamp(image: $0.image, placement: $1) })
    let inputs = Set(([job.base] + job.stamps.map(\.image)).map(OutputPaths.realPath))
    guard let paths else { throw BatchError.outputFolder(path: "", message: "no output folder") }
    let target = try paths.resolve(job.output, job: job.id, inputs: inputs)
    try renderer.render(plan, to: target, quality: job.settings.quality)
    guard let viewOutput = job.viewOutput else { return [job.output] }
    let window = ViewWindow(
      visible: scene.viewport.visible, viewSize: scene.viewport.viewSize, screenScale: job.screenScale)
    let viewTarget = try paths.resolve(viewOutput, job: job.id, inputs: inputs)
    try renderer.renderView(plan, window: window, to: viewTarget, quality: job.settings.quality)
    return [job.output, viewOutput]
  }

  /// Reads the headers the job needs (never the pixels of the photo) and replays its gestures; `stampSize`
  /// gives a stamp image's upright pixel size.
  func replay(_ job: JobEntry, stampSize: (String) throws -> Size) throws -> (SceneResult, ImageHeader) {
    let header = try ImageHeader.read(job.base)
    guard header.width * header.height <= renderer.maxPixels else {
      throw RenderError.tooLarge(path: job.base, width: header.width, height: header.height, limit: renderer.maxPixels)
    }
    var sizes: [String: Size] = [:]
    for stamp in job.stamps where sizes[stamp.image] == nil {
      sizes[stamp.image] = try stampSize(stamp.image)
    }
    let spec = try job.scene(imageSize: header.uprightSize, stampPixelSizes: sizes)
    return (try StampCore.replay(spec), header)
  }
}
