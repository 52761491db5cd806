// Replays a long recorded touch trace through the public `replay` (validation included) and prints the touch
// events replayed per second on one core: the median of several runs.
//
// Usage: StampBench [EVENTS] [RUNS]

import StampCore
import StampManifest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A trace that keeps every recognizer busy: two-finger pinch/rotate on a stamp (two events a frame), one-finger
/// drags of the stamp and of the background, and taps, repeated until it holds `count` events.
func makeTrace(count: Int) -> [TouchEvent] {
  var events: [TouchEvent] = []
  events.reserveCapacity(count + 512)
  var t = 0.0
  var block = 0
  func add(_ id: Int, _ phase: TouchPhase, _ x: Double, _ y: Double) {
    events.append(TouchEvent(t: t, id: id, phase: phase, location: StampPoint(x, y)))
  }
  while events.count < count {
    // Pinch/rotate: 120 frames, the fingers turning and breathing about the stamp at (500, 500).
    for k in 0...121 {
      let angle = Double(min(k, 120)) * 0.02 * (block % 2 == 0 ? 1 : -1)
      let r = 40 + 20 * sin(Double(min(k, 120)) * 0.1)
      let phase: TouchPhase = k == 0 ? .began : (k == 121 ? .ended : .moved)
      add(1, phase, 520 - r * cos(angle), 500 - r * sin(angle))
      add(2, phase, 520 + r * cos(angle), 500 + r * sin(angle))
      t += 1.0 / 120
    }
    // A drag of the stamp, then of the background, 60 frames each.
    for (x0, y0) in [(500.0, 500.0), (100.0, 100.0)] {
      t += 0.1
      add(3, .began, x0, y0)
      for k in 1...60 {
        t += 1.0 / 120
        let d = Double(k) * (block % 2 == 0 ? 1 : -1)
        add(3, .moved, x0 + d, y0 + d / 2)
      }
      t += 1.0 / 120
      add(3, .ended, x0 + (block % 2 == 0 ? 60 : -60), y0 + (block % 2 == 0 ? 30 : -30))
    }
    // A tap.
    t += 0.1
    add(4, .began, 800, 800)
    t += 0.05
    add(4, .ended, 800, 800)
    t += 0.5
    block += 1
  }
  return events
}

let arguments = CommandLine.arguments
let eventCount = arguments.count > 1 ? Int(arguments[1]) ?? 4_000_000 : 4_000_000
let runs = arguments.count > 2 ? Int(arguments[2]) ?? 7 : 7

let trace = makeTrace(count: eventCount)
var settings = GestureSettings()
settings.zoomRange = 1...8
let spec = SceneSpec(
  imageSize: StampSize(2000, 2000), view: StampSize(1000, 1000),
  stamps: [StampSpec(id: "s", center: StampPoint(500, 500), width: 200, pixelSize: StampSize(256, 256))],
  gestures: [.touches(trace)], settings: settings)

// What the trace does, so that the figure is known to come from real work.
do {
  let result = try replay(spec)
  var kinds: [String: Int] = [:]
  for gesture in result.gestures { kinds[gesture.kind.rawValue, default: 0] += 1 }
  let summary = kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
  print("recognized: \(summary); stamp scale \(result.stamps[0].scale), rotation \(result.stamps[0].rotation)")
} catch {
  print("StampBench: error: \(error)")
  exit(1)
}

let clock = ContinuousClock()
var rates: [Double] = []
var checksum = 0.0
for _ in 0..<runs {
  let start = clock.now
  do {
    let result = try replay(spec)
    checksum += result.stamps[0].scale + Double(result.gestures.count)
  } catch {
    print("StampBench: error: \(error)")
    exit(1)
  }
  let elapsed = clock.now - start
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
  rates.append(Double(trace.count) / seconds)
}
rates.sort()
let median = rates[rates.count / 2]
let millions = (median / 1e5).rounded() / 10
print("touch events: \(trace.count) per run, \(runs) runs, one core")
print("replay: \(millions) million touch events/s (median; best \((rates[rates.count - 1] / 1e5).rounded() / 10))")
if checksum.isNaN { print("unreachable") }

// Manifest decoding: the same kind of trace written as a manifest's touches item (about 30 MB of JSON), decoded
// and validated from bytes in memory, in MB/s.
let manifestEvents = min(eventCount, 400_000)
var json = "{\"version\": 1, \"jobs\": [{\"id\": \"bench\", \"base\": \"photo.jpg\", \"view\": {\"width\": 1000, "
json +=
  "\"height\": 1000}, \"stamps\": [{\"id\": \"s\", \"image\": \"s.png\", \"center\": [500, 500], \"width\": 200}],\n"
json += "\"gestures\": [{\"touches\": [\n"
json += trace.prefix(manifestEvents).map { e in
  "{\"t\": \(e.t), \"id\": \(e.id), \"phase\": \"\(e.phase.rawValue)\", \"x\": \(e.location.x), \"y\": \(e.location.y)}"
}.joined(separator: ",\n")
json += "\n]}]}]}\n"
let bytes = Array(json.utf8)
var decodeRates: [Double] = []
for _ in 0..<runs {
  let start = clock.now
  do {
    let manifest = try ManifestDecoder().decode(bytes, file: "bench.json")
    checksum += Double(manifest.jobs.count)
  } catch {
    print("StampBench: manifest error: \(error)")
    exit(1)
  }
  let elapsed = clock.now - start
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
  decodeRates.append(Double(bytes.count) / seconds / 1e6)
}
decodeRates.sort()
let decodeMedian = (decodeRates[decodeRates.count / 2] * 10).rounded() / 10
print(
  "manifest decoding: \(decodeMedian) MB/s (median of \(runs); \(bytes.count / 1_000_000) MB, \(manifestEvents) events)"
)
