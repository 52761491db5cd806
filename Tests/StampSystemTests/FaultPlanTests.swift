import Foundation
import StampTestFolders
import Testing

@testable import StampSystem

/// `FaultPlan`: the seam through which tests make a system call fail, for the calls of one thread, inside `run`.
struct FaultPlanTests {
  @Test func aPlannedFailureReachesTheCallerAsItsErrno() throws {
    let folder = try TestFolder("stampsystem")
    defer { folder.remove() }
    try folder.write("a.txt", "abc")
    let plan = FaultPlan([SystemFault(.open, .ioFailure)])
    #expect(throws: Errno.ioFailure) {
      try plan.run { () throws(Errno) in _ = try FileDescriptor.open(folder.path("a.txt"), O_RDONLY) }
    }
    #expect(plan.injected == [.open])
    // Outside `run` the same call reaches the file.
    let file = try FileDescriptor.open(folder.path("a.txt"), O_RDONLY)
    #expect(try file.status().size == 3)
  }

  @Test func skippedCallsGoThroughAndACountedFaultStops() throws {
    let folder = try TestFolder("stampsystem")
    defer { folder.remove() }
    try folder.write("a.txt", "abc")
    // The first open succeeds, the next two fail, the fourth succeeds again.
    let plan = FaultPlan([SystemFault(.open, .noSpace, skipping: 1, count: 2)])
    let outcomes = plan.run {
      (0..<4).map { _ in
        do throws(Errno) {
          _ = try FileDescriptor.open(folder.path("a.txt"), O_RDONLY)
          return "ok"
        } catch {
          return error.description
        }
      }
    }
    #expect(outcomes == ["ok", "no space left on device", "no space left on device", "ok"])
    #expect(plan.injected == [.open, .open])
  }

  @Test func anotherThreadsCallsAreNotTouched() async throws {
    let folder = try TestFolder("stampsystem")
    defer { folder.remove() }
    try folder.write("a.txt", "abc")
    let path = folder.path("a.txt")
    let plan = FaultPlan([SystemFault(.fstat, .ioFailure)])
    let elsewhere = plan.run {
      // A thread of its own, started and joined inside the plan's run.
      let result = Locked()
      let thread = Thread { result.set((try? FileDescriptor.open(path, O_RDONLY).status().size) ?? -1) }
      thread.start()
      while !result.isSet { usleep(1000) }
      return result.value
    }
    #expect(elsewhere == 3)
    #expect(plan.injected.isEmpty)
  }

  /// A value one thread sets and another reads.
  private final class Locked: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int64?
    func set(_ value: Int64) { lock.withLock { stored = value } }
    var isSet: Bool { lock.withLock { stored != nil } }
    var value: Int64 { lock.withLock { stored ?? -1 } }
  }
}
