import Foundation
import StampSystem
import StampTestFolders
import Testing

@testable import StampFiles

/// `AtomicFile` when the system fails it: a full disk or a failing device is an error naming the output and the
/// cause, and leaves neither a partial output nor a temporary file; a write interrupted by a signal is retried.
struct AtomicFileTests {
  /// What `fault` makes of `AtomicFile.write("hello", to: out.txt)` over an existing `out.txt` holding "before".
  struct Case: CustomStringConvertible, Sendable {
    let fault: SystemFault
    let message: String
    var description: String { "\(fault.call) failing with \(fault.error)" }
  }

  static let failures = [
    Case(fault: SystemFault(.write, .noSpace), message: "no space left on device"),
    Case(fault: SystemFault(.write, .ioFailure), message: "input/output error"),
    Case(fault: SystemFault(.fsync, .ioFailure), message: "input/output error"),
    Case(fault: SystemFault(.openat, .noSpace), message: "no space left on device"),
    Case(fault: SystemFault(.renameat, .ioFailure), message: "input/output error"),
  ]

  @Test(arguments: failures)
  func aFailedWriteNamesTheOutputAndLeavesTheOldFileAlone(_ failure: Case) throws {
    let folder = try TestFolder("stampfiles")
    defer { folder.remove() }
    try folder.write("out.txt", "before")
    let out = folder.path("out.txt")
    let plan = FaultPlan([failure.fault])
    let error = try #require(throws: FileError.self) {
      try plan.run { try AtomicFile.write(Data("hello".utf8), to: out) }
    }
    #expect(plan.injected == [failure.fault.call])
    #expect(error == .write(path: out, message: failure.message))
    #expect(error.description == "\(out): cannot write: \(failure.message)")
    #expect(folder.files("") == ["out.txt"])
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "before")
  }

  @Test func aFullDiskOnANewOutputLeavesNothingInTheFolder() throws {
    let folder = try TestFolder("stampfiles")
    defer { folder.remove() }
    let out = folder.path("new.txt")
    // The first write succeeds, the second finds the disk full: a partial temporary was on disk until the failure.
    let plan = FaultPlan([SystemFault(.write, .noSpace, skipping: 1)])
    let error = try #require(throws: FileError.self) {
      try plan.run {
        try AtomicFile.write(to: out) { file in
          do throws(Errno) {
            try file.writeAll(Array("hel".utf8)[...])
            try file.writeAll(Array("lo".utf8)[...])
          } catch {
            throw FileError.write(path: out, message: error.description)
          }
        }
      }
    }
    #expect(error.description == "\(out): cannot write: no space left on device")
    #expect(folder.files("").isEmpty)
  }

  @Test func aStagedOutputThatFailsIsNeitherLeftNorStillRegistered() throws {
    let folder = try TestFolder("stampfiles")
    defer { folder.remove() }
    let registry = TemporaryFiles()
    let target = OutputTarget(folder: try Folder.open(path: folder.path("")), name: "o.bin", display: "o.bin")
    let plan = FaultPlan([SystemFault(.write, .noSpace)])
    #expect(throws: FileError.write(path: "o.bin", message: "no space left on device")) {
      try plan.run {
        _ = try AtomicFile.stage(target, registry: registry) { file in
          do throws(Errno) {
            try file.writeAll(Array("data".utf8)[...])
          } catch {
            throw FileError.write(path: "o.bin", message: error.description)
          }
        }
      }
    }
    #expect(registry.inProgress.isEmpty)
    #expect(folder.files("").isEmpty)
  }

  @Test func aWriteInterruptedBySignalsIsRetriedAndTheOutputIsWhole() throws {
    let folder = try TestFolder("stampfiles")
    defer { folder.remove() }
    let out = folder.path("out.txt")
    let plan = FaultPlan([SystemFault(.write, .interrupted, count: 2), SystemFault(.fsync, .interrupted, count: 1)])
    try plan.run { try AtomicFile.write(Data("hello".utf8), to: out) }
    #expect(plan.injected == [.write, .write, .fsync])
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "hello")
    #expect(folder.files("") == ["out.txt"])
  }
}
