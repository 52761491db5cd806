import Dispatch

/// Runs work items on a fixed number of threads, pulling the next item as each finishes.
///
/// Items come from a pull function so that a streamed manifest is read no faster than it is rendered.
enum WorkQueue {
  /// Calls `work` for every item `next` returns until it returns nil, with at most `width` calls in flight.
  static func run<Item>(width: Int, next: @escaping @Sendable () -> Item?, work: @escaping @Sendable (Item) -> Void) {
    let group = DispatchGroup()
    let queue = DispatchQueue(label: "stampcam.jobs", attributes: .concurrent)
    for _ in 0..<max(1, width) {
      queue.async(group: group) {
        while let item = next() {
          work(item)
        }
      }
    }
    group.wait()
  }
}
