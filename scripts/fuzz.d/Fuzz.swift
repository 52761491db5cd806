// libFuzzer entry point for scripts/fuzz: manifest decoding, validation and gesture replay on arbitrary bytes.
//
// Thrown errors are the expected outcome for most inputs; a trap, an address error, a hang or runaway memory is a
// bug. The bytes are read twice: as a JSON manifest held in memory and as a JSON Lines file on disk.

import Foundation
import Glibc
import StampCore
import StampManifest

/// Touch events one input may replay in all, so that a few manifests at the limits do not stall the run; a single
/// job at `ManifestLimits.maxTouchEvents` is still cheaper than libFuzzer's timeout.
private let eventBudget = 250_000

/// Photo sizes a renderer could report, picked by the input's length so that the choice is deterministic.
private let imageSizes = [Size(1000, 750), Size(1, 1), Size(4000, 3000), Size(3, 20000), Size(390, 844)]
private let stampSizes = [Size(100, 100), Size(1, 1), Size(512, 64), Size(7, 3000)]

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
private func replay(_ job: JobEntry, imageSize: Size, stampSize: Size, budget: inout Int) {
  let cost = job.gestures.reduce(0) { $0 + events(in: $1) }
  guard cost <= budget else { return }
  budget -= 2 * cost
  var sizes: [String: Size] = [:]
  for stamp in job.stamps { sizes[stamp.image] = stampSize }
  do {
    let spec = try job.scene(imageSize: imageSize, stampPixelSizes: sizes)
    do {
      _ = try StampCore.replay(spec)
    } catch {
      _ = String(describing: error)
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
