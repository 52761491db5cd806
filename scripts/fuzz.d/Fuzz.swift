// libFuzzer entry point for scripts/fuzz: manifest decoding, validation, gesture replay, the render plan's geometry
// and explain's JSON on arbitrary bytes.
//
// Thrown errors are the expected outcome for most inputs; a trap, an address error, a hang or runaway memory is a
// bug. The bytes are read twice: as a JSON manifest held in memory and as a JSON Lines file on disk. Every scene
// that replays is carried on as far as pixels: each stamp's geometry as the renderer computes it (StampRender's
// StampGeometry, compiled in), which must land inside the photo; and the job's entry in `explain` (StampBatch's
// SceneJSON and JSON writer, compiled in), which must parse as JSON and hold only finite numbers.

import Foundation
import Glibc
import StampCore
import StampManifest

/// Touch events one input may replay in all, so that a few manifests at the limits do not stall the run; a single
/// job at `Limits.maxTouchEvents` is still cheaper than libFuzzer's timeout.
private let eventBudget = 250_000

/// Photo sizes a renderer could report, picked by the input's length so that the choice is deterministic.
private let imageSizes = [
  StampSize(1000, 750), StampSize(1, 1), StampSize(4000, 3000), StampSize(3, 20000), StampSize(390, 844),
  StampSize(10_000_000, 1),
]
private let stampSizes = [StampSize(100, 100), StampSize(1, 1), StampSize(512, 64), StampSize(7, 3000)]

/// The JSON Lines copy of the input: one file per process, in the folder the script names.
private let linesURL: URL = {
  let folder = ProcessInfo.processInfo.environment["STAMPCAM_FUZZ_TMP"] ?? NSTemporaryDirectory()
  return URL(fileURLWithPath: folder).appendingPathComponent("input-\(getpid()).jsonl")
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let imageSize = imageSizes[bytes.count % imageSizes.count]
  let stampSize = stampSizes[bytes.count % stampSizes.count]
  var budget = eventBudget
  let decoder = ManifestDecoder()

  do {
    let manifest = try decoder.decode(bytes, file: "fuzz.json")
    for job in manifest.jobs { replay(job, imageSize: imageSize, stampSize: stampSize, budget: &budget) }
  } catch {
    _ = error.description
  }

  guard write(bytes, to: linesURL) else { return 0 }
  let problems = decoder.validate(contentsOf: linesURL)
  _ = problems.map(\.description)
  if problems.isEmpty {
    for record in decoder.jobs(inLinesAt: linesURL) {
      if case .success(let job) = record.result {
        replay(job, imageSize: imageSize, stampSize: stampSize, budget: &budget)
      }
    }
  }
  return 0
}

/// Builds the job's scene with made-up header sizes and replays it both ways, unless the budget is spent.
private func replay(_ job: JobEntry, imageSize: StampSize, stampSize: StampSize, budget: inout Int) {
  let cost = job.gestures.reduce(0) { $0 + events(in: $1) }
  guard cost <= budget else { return }
  budget -= 2 * cost
  var sizes: [String: StampSize] = [:]
  for stamp in job.stamps { sizes[stamp.image] = stampSize }
  do {
    let spec = try job.scene(imageSize: imageSize, stampPixelSizes: sizes)
    do {
      let scene = try StampCore.replay(spec)
      plan(scene, imageSize: imageSize, stampSize: stampSize)
      explain(job.id, scene)
    } catch {
      _ = String(describing: error)
      explainFailure(job.id, "\(error)")
    }
    do {
      _ = try replayTracing(spec)
    } catch {
      _ = String(describing: error)
    }
  } catch {
    _ = error.description
  }
}

/// Each stamp's geometry as `Renderer` computes it from a placement (before the pre-reduce, which needs pixels):
/// the replay must never hand over a stamp drawn over a million pixels across, and the box must lie in the photo.
private func plan(_ scene: SceneResult, imageSize: StampSize, stampSize: StampSize) {
  let (width, height) = (Int(imageSize.width), Int(imageSize.height))
  for p in scene.stamps {
    let (sx, sy) = (p.size.width * p.scale / stampSize.width, p.size.height * p.scale / stampSize.height)
    let across = max(stampSize.width * sx, stampSize.height * sy)
    guard across <= 1_000_000 else { fatalError("replay passed a stamp \(across) pixels across") }
    guard sx.isFinite, sy.isFinite, sx > 0, sy > 0 else { fatalError("replay passed a scale of \(sx) x \(sy)") }
    let radians = p.rotation * .pi / 180
    let (cosine, sine) = (cos(radians), sin(radians))
    let geometry = StampGeometry(
      sourceSize: stampSize, sourceCenter: StampPoint(stampSize.width / 2, stampSize.height / 2),
      linear: (sx * cosine, -sy * sine, sx * sine, sy * cosine), center: p.center, imageWidth: width,
      imageHeight: height)
    guard let box = geometry.box else { continue }
    guard box.left >= 0, box.top >= 0, box.width > 0, box.height > 0, box.left + box.width <= width,
      box.top + box.height <= height
    else { fatalError("box \(box) outside a \(width) x \(height) photo") }
    if let window = geometry.sourceWindow(width: Int(stampSize.width), height: Int(stampSize.height)) {
      let (odx, ody) = geometry.offsets(croppedAt: window.left, window.top)
      guard odx.isFinite, ody.isFinite else { fatalError("offsets \(odx), \(ody)") }
    }
  }
}

/// The job's `explain` entry must be JSON holding only finite numbers.
private func explain(_ id: String, _ scene: SceneResult) {
  requireJSON(JSON.render(SceneJSON.describe(id, scene)))
}

private func explainFailure(_ id: String, _ message: String) {
  requireJSON(JSON.render(SceneJSON.failure(id, message)))
}

private func requireJSON(_ text: String) {
  guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else {
    fatalError("explain printed what is not JSON: \(text)")
  }
  guard allFinite(value) else { fatalError("explain printed a non-finite number: \(text)") }
}

private func allFinite(_ value: Any) -> Bool {
  switch value {
  case let array as [Any]: return array.allSatisfy(allFinite)
  case let object as [String: Any]: return object.values.allSatisfy(allFinite)
  case let number as NSNumber: return number.doubleValue.isFinite
  default: return true
  }
}

/// About how many touch events an item replays.
private func events(in item: GestureItem) -> Int {
  switch item {
  case .touches(let events): return events.count
  case .tap: return 2
  case .doubleTap, .twoFingerTap: return 4
  case .pinch(let pinch): return 2 * (pinch.steps + 2)
  case .drag(let drag): return drag.steps + 2
  }
}

/// Replaces the file's contents with `bytes`; false when it cannot be written.
private func write(_ bytes: [UInt8], to url: URL) -> Bool {
  let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
  guard fd >= 0 else { return false }
  defer { close(fd) }
  var done = 0
  while done < bytes.count {
    let n = bytes[done...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    if n < 0 && errno == EINTR { continue }
    guard n > 0 else { return false }
    done += n
  }
  return true
}
