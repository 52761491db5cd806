import CJPEGDirect
import CVips
import CVipsGlue
import Foundation
import StampFiles

/// One job's stop switch: `stop` cancels the pixel work in flight (libvips evaluations, through
/// vips_image_set_kill; the JPEG path, through libjpeg's progress monitor) and every later step, so the job fails
/// soon with the reason given. It travels in the job's `JobContext`, handed to wherever pixels are computed.
package final class JobControl: Sendable {
  private struct State {
    var watched: [ObjectIdentifier: Image] = [:]
    var reason: String?
    var stoppedAt: DispatchTime?
  }
  private let state = Locked(State())
  /// Raised once stopped: read by libjpeg's progress monitor on the job's thread. It is an atomic in C, which is
  /// what makes sharing the pointer safe, with counted references: the control holds one, and each C reader it is
  /// handed to takes its own (a libvips image over a row reader may outlive the control). Nil only when it could
  /// not be allocated: the JPEG work then runs to its end, and the job still fails at its next checkpoint.
  nonisolated(unsafe) let stopFlag: OpaquePointer?

  /// A control not yet stopped.
  package init() {
    stopFlag = sjs_stop_create()
  }

  deinit {
    sjs_stop_release(stopFlag)
  }

  /// Stops the job: the evaluations in flight are killed and every later one fails with `reason`.
  package func stop(because reason: String) {
    state.withLock { state in
      guard state.reason == nil else { return }
      state.reason = reason
      state.stoppedAt = .now()
      if let stopFlag { sjs_stop_raise(stopFlag) }
      for image in state.watched.values { vips_image_set_kill(image.pointer, 1) }
    }
  }

  /// Why the job was stopped; nil while it runs.
  package var stopReason: String? { state.withLock { $0.reason } }
  /// Throws the stop reason, naming `path`, once the job was stopped. A step that could not be interrupted (libwebp's
  /// encoder, which libvips 8.14 runs to its end) and ended more than a second after the stop is told, with how late.
  func checkpoint(_ path: String, now: DispatchTime = .now()) throws {
    let (reason, stoppedAt) = state.withLock { ($0.reason, $0.stoppedAt) }
    guard let reason else { return }
    let late = stoppedAt.map { Double(now.uptimeNanoseconds &- $0.uptimeNanoseconds) / 1e9 } ?? 0
    guard late > 1, late < 1e9 else { throw RenderError.stopped(path: path, reason: reason) }
    let note = "the step in flight could not be interrupted and ended \(String(format: "%.1f", late)) s later"
    throw RenderError.stopped(path: path, reason: "\(reason); \(note)")
  }

  /// Runs `body`, which evaluates `image` (an image of this job's own: the kill flag stays on it), killable.
  func watch<T>(_ image: Image, _ body: () throws -> T) throws -> T {
    let id = ObjectIdentifier(image)
    state.withLock { if $0.reason == nil { $0.watched[id] = image } }
    defer { state.withLock { $0.watched[id] = nil } }
    try checkpoint(image.source)
    do {
      let result = try body()
      try checkpoint(image.source)
      return result
    } catch {
      try checkpoint(image.source)
      throw error
    }
  }
}

extension Image {
  /// Runs `body`, which computes this image's pixels (the image must be the job's own, never a shared one), so
  /// that the job's `control` can stop it (nil: nothing can). When a tile failed anywhere meanwhile (see `scv_tile_errors`),
  /// the image's file is decoded again alone, under the policy it was opened with, and a problem found there fails
  /// the evaluation even if libvips reported success: its tile cache hands a failed tile on as black, without the
  /// error, to the threads waiting for it (seen: a truncated PNG photo written with black rows, one job in eight,
  /// two jobs in flight).
  func evaluating<T>(under control: JobControl?, _ body: () throws -> T) throws -> T {
    let failedTiles = scv_tile_errors()
    let result: T
    if let control {
      result = try control.watch(self, body)
    } else {
      result = try body()
    }
    if scv_tile_errors() != failedTiles, let failOn, let problem = RenderError.problem(reading: source, failOn: failOn)
    {
      throw RenderError.input(path: source, problem: problem)
    }
    return result
  }
}
