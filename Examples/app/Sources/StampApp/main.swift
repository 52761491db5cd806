import StampCore
import StampManifest

// A 1000 x 800 photo on a 500 x 400 screen (shown at half size), and a star stamp 100 points wide on it.
let star = StampSpec(id: "star", center: StampPoint(250, 200), width: 100, pixelSize: StampSize(64, 64))
var session = try StampSession(imageSize: StampSize(1000, 800), view: StampSize(500, 400), stamps: [star])

// Frames of touches as touchesBegan/Moved/Ended hand them over: two fingers land on the star 50 points apart,
// spread to 75 points apart (a pinch of x1.5), and lift.
let frames: [[TouchEvent]] = [
  [
    TouchEvent(t: 0, id: 1, phase: .began, location: StampPoint(225, 200)),
    TouchEvent(t: 0, id: 2, phase: .began, location: StampPoint(275, 200)),
  ],
  [
    TouchEvent(t: 0.05, id: 1, phase: .moved, location: StampPoint(212.5, 200)),
    TouchEvent(t: 0.05, id: 2, phase: .moved, location: StampPoint(287.5, 200)),
  ],
  [
    TouchEvent(t: 0.1, id: 1, phase: .ended, location: StampPoint(212.5, 200)),
    TouchEvent(t: 0.1, id: 2, phase: .ended, location: StampPoint(287.5, 200)),
  ],
]
for frame in frames {
  try session.feed(frame)
  // The frame's gesture events: a pinch or drag began, changed, ended or was cancelled, with its scale so far.
  for event in session.latestEvents {
    print("\(event.kind) \(event.phase) on \(event.target ?? "the photo") at t = \(event.t): scale \(event.scale)")
  }
  // Redraw here: session.stamps are in photo pixels; session.toView(imagePoint:) maps one to the screen. A single
  // tap waits for session.nextDeadline: set a timer for it, then call session.advance(to:) with the time.
}
session.endItem()  // The person is done: fingers still down are cancelled, a pending single tap fires.

let placed = session.stamps[0]
print("star: scale \(placed.scale), rotation \(placed.rotation)")
print("centre \(placed.center) in the photo, \(session.toView(imagePoint: placed.center)) on the screen")

// Hand it to the batch: one line of a JSON Lines manifest, which `stampcam render` replays the same way.
let job = JobEntry(
  id: "star", base: "photo.jpg", output: "star.jpg", view: StampSize(500, 400),
  stamps: [StampEntry(id: "star", image: "star.png", center: StampPoint(250, 200), width: 100)],
  gestures: session.script)
print(ManifestWriter().jsonLine(job))
