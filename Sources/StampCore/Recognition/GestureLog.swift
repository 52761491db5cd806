/// What the engine tells its caller: the gestures it keeps (every one, or the latest `limit`) and what the latest
/// call recognized, as gestures and as phase events.
struct GestureLog: Sendable {
  /// The gestures recognized so far, in order: every one, or the latest `limit`.
  private(set) var gestures: [RecognizedGesture] = []
  /// How many gestures `gestures` keeps; nil keeps all.
  var limit: Int?
  /// Whether `latestGestures` and `latestEvents` are filled; a replay, which reads neither, turns them off.
  var reportsLatest = true
  /// The gestures recognized and the events since `clearLatest()`.
  private(set) var latestGestures: [RecognizedGesture] = []
  private(set) var latestEvents: [GestureEvent] = []

  /// Adds a recognized gesture to the history (dropping the oldest beyond `limit`) and to `latestGestures`.
  mutating func keep(_ gesture: RecognizedGesture) {
    if reportsLatest { latestGestures.append(gesture) }
    guard let limit else { return gestures.append(gesture) }
    guard limit > 0 else { return }
    if gestures.count >= limit { gestures.removeFirst(gestures.count - limit + 1) }
    gestures.append(gesture)
  }

  /// Adds an event to `latestEvents`.
  mutating func report(_ event: GestureEvent) {
    if reportsLatest { latestEvents.append(event) }
  }

  /// Empties `latestGestures` and `latestEvents`, keeping their storage.
  mutating func clearLatest() {
    latestGestures.removeAll(keepingCapacity: true)
    latestEvents.removeAll(keepingCapacity: true)
  }

  /// The number of items held and the capacity of their storage, for the tests of a bounded history.
  var retained: (items: Int, capacity: Int) {
    (
      gestures.count + latestGestures.count + latestEvents.count,
      gestures.capacity + latestGestures.capacity + latestEvents.capacity
    )
  }
}
