import Foundation
import StampFiles

@testable import StampRender

// The renderer writes into folders held open (`OutputTarget`); tests name their outputs by path. These entry points
// open the path's folder, stage and commit at once, and tell a failure by the file at fault, as the batch does.

extension Renderer {
  /// Renders `plan` to `output` (see `stage(_:to:quality:)`) and returns the path it took.
  @discardableResult
  package func render(_ plan: RenderPlan, to output: String, quality: Int? = nil) throws -> RenderPath {
    try Self.committing(plan, to: output) { try stage(plan, to: $0, quality: quality) }
  }

  /// Renders what the screen showed, `window`, to `output` (see `stageView`).
  package func renderView(_ plan: RenderPlan, window: ViewWindow, to output: String, quality: Int? = nil) throws {
    _ = try Self.committing(plan, to: output) { (try stageView(plan, window: window, to: $0, quality: quality), ()) }
  }

  /// Stages with `stage` for the target `output`, commits, and names the file at fault when it fails.
  private static func committing<T>(
    _ plan: RenderPlan, to output: String, _ stage: (OutputTarget) throws -> (file: StagedFile, path: T)
  ) throws -> T {
    guard OutputFormat(path: output) != nil else { throw RenderError.unsupportedFormat(path: output) }
    do {
      let (staged, path) = try stage(try OutputTarget(path: output))
      try staged.commit()
      return path
    } catch {
      guard let error = RenderError(error) else { throw error }
      throw error.diagnosed(reading: plan.base)
    }
  }
}

extension JPEGTransplant {
  /// Reads the base's header, chooses the path and, when it is a transplant, writes `output` atomically. Returns
  /// the path chosen (nothing is written for a libvips one).
  package static func transplant(_ plan: RenderPlan, to output: String, with renderer: Renderer) throws -> RenderPath {
    var facts: JPEGFacts?
    let result = try transplant(
      plan, file: try renderer.file(of: plan), to: try OutputTarget(path: output), with: renderer.jpegSettings,
      facts: &facts)
    try result.staged?.commit()
    return result.path
  }

  /// `stage` for a renderer, opening the plan's base.
  package static func stage(_ plan: RenderPlan, to target: OutputTarget, quality: Int?, with renderer: Renderer)
    throws -> Attempt
  {
    try stage(plan, file: try renderer.file(of: plan), to: target, quality: quality, with: renderer.jpegSettings)
  }
}

extension ImageWriter {
  /// Writes `image` to `path`; on any failure nothing is left behind and `path` is untouched.
  package static func write(_ image: Image, to path: String, format: OutputFormat, quality: Int) throws {
    try stage(image, to: OutputTarget(path: path), format: format, quality: quality, in: JobContext()).commit()
  }
}

extension JPEGCodec {
  /// Writes the coefficients to `target` with the ICC profile and, when not 1, the orientation tag.
  package func write(to target: String, orientation: Int) throws {
    try AtomicFile.write(to: target) { try write(to: $0.rawValue, named: target, orientation: orientation) }
  }

  /// Reads the file at `path` and its header, as `open(_:maxBytes:)` does with the file held open.
  package func open(_ path: String, maxBytes: Int = Renderer.defaultMaxFileBytes) throws -> JPEGFacts? {
    try open(InputFile.open(path), maxBytes: maxBytes)
  }
}
