import Foundation
import StampCore
import StampFiles
import StampManifest
import StampRender
import StampSystem

/// Turns one manifest job into files: headers -> scene -> gestures replayed -> render plan -> pixels.
struct JobRenderer: Sendable {
  let renderer: Renderer
  let paths: OutputPaths?
  /// The idle JPEG codecs of every job this renderer renders (each job's `JobContext` lends from it).
  let codecs = JPEGCodecPool()

  /// Also draw the overlay picture for every job, whatever the manifest says (`render --overlay`).
  var overlayAll = false
  /// Files no output may replace besides each job's own inputs: every input of the batch, the manifest, the report.
  var protected: Set<FileIdentity> = []
  /// Called between resolving a job's outputs and creating their temporary files; tests swap folders for links here.
  var afterResolving: (@Sendable () -> Void)?
  /// Called before the overlay is drawn; tests make the overlay fail here.
  var beforeOverlay: (@Sendable () throws -> Void)?

  /// A renderer that only replays jobs from their images' headers (validate, explain), reading them as `render`
  /// does under `maxPixels` and `inputs`; it writes nothing.
  static func replaying(maxPixels: Int, inputs: InputPolicy) -> JobRenderer {
    var renderer = Renderer(maxPixels: maxPixels)
    renderer.inputs = inputs
    return JobRenderer(renderer: renderer, paths: nil)
  }

  /// The files the job writes, in the order they are written (the overlay too under `render --overlay`).
  func outputs(of job: JobEntry) -> [JobOutput] {
    job.outputs(overlayForEveryJob: overlayAll)
  }

  /// The context of one job: `control` (by default one nothing stops), a budget of `maxPixels` decoded stamp pixels,
  /// this renderer's codecs, and `temporaries` (the run's; by default a registry of its own, for a job run alone).
  func context(control: JobControl = JobControl(), temporaries: TemporaryFiles = TemporaryFiles()) -> JobContext {
    JobContext(
      control: control, budget: StampBudget(limit: renderer.maxPixels), codecs: codecs, temporaries: temporaries)
  }

  /// The identities of the job's inputs (and of every file the batch protects): no output may replace one.
  func inputs(of job: JobEntry) -> Set<FileIdentity> {
    protected.union(([job.base] + job.stamps.map(\.image)).compactMap(FileIdentity.init(path:)))
  }

  /// Renders every output of the job to its temporary file and returns them staged, for `TemporaryFiles.commit`
  /// to rename together (a job's outputs appear all at once or not at all; on a failure none is left), with the
  /// path its main output took. The overlay alone is a picture about the job, not its result: when drawing it
  /// fails, the others are returned without it, with its error.
  func stage(_ job: JobEntry, in context: JobContext) throws -> (
    files: [StagedFile], path: RenderPath?, overlayFailure: Error?
  ) {
    guard let paths else { throw BatchError.outputFolder(path: "", message: "no output folder") }
    let renderer = renderer.forJob(context)
    let wantsOverlay = outputs(of: job).contains { $0.kind == .overlay }
    // The photo is opened once: its header and, for every output, its pixels are read from that one file.
    let base = try InputFile.open(job.base, root: renderer.inputs.root, followingLink: !job.photoFoundByWalk)
    let (scene, traces) = try replay(job, base: base, tracing: wantsOverlay, checkingSizes: true) {
      try renderer.cache.pixelSize(of: $0)
    }
    var plan = RenderPlan(
      base: job.base,
      stamps: zip(job.stamps, scene.stamps).map { RenderPlan.Stamp(image: $0.image, placement: $1) })
    plan.baseFile = base
    let inputs = inputs(of: job)
    let quality = job.settings.quality
    let targets = try outputs(of: job).map { written in
      var target = try paths.resolve(written.path, job: job.id, inputs: inputs)
      // An output is never more open than its photo: a private photo stays private.
      target.modeLimit = base.mode
      return (kind: written.kind, target: target)
    }
    afterResolving?()
    var staged: [StagedFile] = []
    var path: RenderPath?
    var overlayFailure: Error?
    do {
      // Told apart by place, never by name: `String ==` calls `é.png` in NFC and NFD, two files, one name.
      for (kind, target) in targets {
        switch kind {
        case .output:
          let main = try renderer.stage(plan, to: target, quality: quality)
          staged.append(main.file)
          path = main.path
        case .viewOutput:
          let window = ViewWindow(
            visible: scene.viewport.visible, viewSize: scene.viewport.viewSize, screenScale: job.screenScale)
          staged.append(try renderer.stageView(plan, window: window, to: target, quality: quality))
        case .overlay:
          let overlay = Overlay(traces: traces, gestures: scene.gestures, stamps: scene.stamps)
          do {
            try beforeOverlay?()
            staged.append(try renderer.stageOverlay(plan, overlay: overlay, to: target, quality: quality))
          } catch RenderError.stopped(let path, let reason) {
            throw RenderError.stopped(path: path, reason: reason)
          } catch {
            overlayFailure = error
          }
        }
      }
    } catch {
      context.temporaries.discard(staged)
      throw error
    }
    return (staged, path, overlayFailure)
  }

  /// Reads the headers the job needs (never the pixels of the photo) and replays its gestures; `stampSize`
  /// gives a stamp image's upright pixel size. With `checkingSizes`, first refuses an output larger than its format
  /// holds (see `checkSizes`).
  func replay(
    _ job: JobEntry, base: InputFile? = nil, tracing: Bool = false, checkingSizes: Bool = false,
    stampSize: (String) throws -> StampSize
  ) throws -> (SceneResult, [TouchTrace]) {
    let file = try base ?? InputFile.open(job.base, root: renderer.inputs.root, followingLink: !job.photoFoundByWalk)
    let header = try ImageHeader.read(file, policy: renderer.inputs)
    guard header.width * header.height <= renderer.maxPixels else {
      throw RenderError.tooLarge(path: job.base, width: header.width, height: header.height, limit: renderer.maxPixels)
    }
    if checkingSizes { try Self.checkSizes(of: job, photo: header.uprightSize) }
    // Keyed by the paths' bytes: two stamps named alike but for Unicode normalization are two files.
    var sizes: [PathKey: StampSize] = [:]
    for stamp in job.stamps where sizes[PathKey(stamp.image)] == nil {
      sizes[PathKey(stamp.image)] = try stampSize(stamp.image)
    }
    let spec = try job.scene(
      imageSize: header.uprightSize, stampPixelSizes: job.stamps.map { sizes[PathKey($0.image)] })
    if tracing { return try StampCore.replayTracing(spec) }
    return (try StampCore.replay(spec), [])
  }

  /// Refuses an output larger than its format's writer takes, from the sizes alone: the output (and its overlay, the
  /// same size and format) is the upright photo's size, the view output the view's size times its screen scale (the photo's when the job has no view).
  static func checkSizes(of job: JobEntry, photo: StampSize) throws {
    // The overlay is the output's size, in its format: checking the output checks it.
    for written in job.outputs() where written.kind != .overlay {
      var (width, height) = (Int(photo.width), Int(photo.height))
      if written.kind == .viewOutput {
        // Without a view, the screen is the photo itself.
        (width, height) = ViewWindow.pixelSize(viewSize: job.view ?? photo, screenScale: job.screenScale)
      }
      if let problem = OutputFormat(path: written.path)?.problem(width: width, height: height) {
        throw BatchError.outputTooLarge(field: written.field, path: written.path, reason: problem)
      }
    }
  }
}
