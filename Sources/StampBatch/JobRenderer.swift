import Foundation
import StampCore
import StampManifest
import StampRender

/// Turns one manifest job into files: headers -> scene -> gestures replayed -> render plan -> pixels.
struct JobRenderer: Sendable {
  let renderer: Renderer
  let paths: OutputPaths?

  /// Also draw the overlay picture for every job, whatever the manifest says (`render --overlay`).
  var overlayAll = false

  /// The outputs the job writes, relative to the output folder, in the order they are written.
  func outputs(of job: JobEntry) -> [String] {
    var outputs = [job.output]
    if let view = job.viewOutput { outputs.append(view) }
    if overlayAll || job.overlay { outputs.append(Self.overlayPath(for: job.output)) }
    return outputs
  }

  /// True when every output of the job exists under the output folder. Outputs are renamed into place only when
  /// complete, so an existing one is a whole one (from this manifest or an earlier run: `--resume` trusts it).
  func isComplete(_ job: JobEntry) -> Bool {
    guard let root = paths?.root else { return false }
    return outputs(of: job).allSatisfy { FileManager.default.fileExists(atPath: root + "/" + $0) }
  }

  /// `a/b.jpg` -> `a/b.overlay.jpg`: the overlay is a copy of the output in the same format.
  static func overlayPath(for output: String) -> String {
    let slash = output.lastIndex(of: "/").map { output.index(after: $0) } ?? output.startIndex
    guard let dot = output[slash...].lastIndex(of: "."), dot > slash else { return output + ".overlay" }
    return String(output[..<dot]) + ".overlay" + String(output[dot...])
  }

  /// Renders the job and returns the outputs written (relative paths).
  func render(_ job: JobEntry) throws -> [String] {
    guard let paths else { throw BatchError.outputFolder(path: "", message: "no output folder") }
    let wantsOverlay = overlayAll || job.overlay
    // The photo is opened once: its header and, for every output, its pixels are read from that one file.
    let base = try InputFile.open(job.base, root: renderer.inputs.root)
    JobControl.current?.outputModeLimit = base.mode
    let (scene, traces) = try replay(job, base: base, tracing: wantsOverlay) { try renderer.cache.pixelSize(of: $0) }
    var plan = RenderPlan(
      base: job.base,
      stamps: zip(job.stamps, scene.stamps).map { RenderPlan.Stamp(image: $0.image, placement: $1) })
    plan.baseFile = base
    let inputs = Set(([job.base] + job.stamps.map(\.image)).map(OutputPaths.realPath))
    let quality = job.settings.quality
    var written: [String] = []
    for output in outputs(of: job) {
      let target = try paths.resolve(output, job: job.id, inputs: inputs)
      if output == job.output {
        try renderer.render(plan, to: target, quality: quality)
      } else if output == job.viewOutput {
        let window = ViewWindow(
          visible: scene.viewport.visible, viewSize: scene.viewport.viewSize, screenScale: job.screenScale)
        try renderer.renderView(plan, window: window, to: target, quality: quality)
      } else {
        let overlay = Overlay(traces: traces, gestures: scene.gestures, stamps: scene.stamps)
        try renderer.renderOverlay(plan, overlay: overlay, to: target, quality: quality)
      }
      written.append(output)
    }
    return written
  }

  /// Reads the headers the job needs (never the pixels of the photo) and replays its gestures; `stampSize`
  /// gives a stamp image's upright pixel size.
  func replay(
    _ job: JobEntry, base: InputFile? = nil, tracing: Bool = false, stampSize: (String) throws -> Size
  ) throws -> (SceneResult, [TouchTrace]) {
    let file = try base ?? InputFile.open(job.base, root: renderer.inputs.root)
    let header = try ImageHeader.read(file, policy: renderer.inputs)
    guard header.width * header.height <= renderer.maxPixels else {
      throw RenderError.tooLarge(path: job.base, width: header.width, height: header.height, limit: renderer.maxPixels)
    }
    var sizes: [String: Size] = [:]
    for stamp in job.stamps where sizes[stamp.image] == nil {
      sizes[stamp.image] = try stampSize(stamp.image)
    }
    let spec = try job.scene(imageSize: header.uprightSize, stampPixelSizes: sizes)
    if tracing { return try StampCore.replayTracing(spec) }
    return (try StampCore.replay(spec), [])
  }
}
