import Foundation
import StampSystem
import StampTestFolders
import Testing

@testable import StampManifest

/// The manifest's reads when the device fails (EIO) or a signal interrupts them (EINTR), in either format: a
/// failure names the file and says why, and an interrupted read is read again.
struct ManifestFileFaultTests {
  static let job = #"{"id": "a", "base": "p.jpg", "output": "a.jpg"}"#

  @Test func aFailingDeviceUnderAJSONManifestIsAnErrorNamingTheFile() throws {
    let folder = try TestFolder("stampmanifest")
    defer { folder.remove() }
    let url = try folder.write("m.json", #"{"version": 1, "jobs": ["# + Self.job + "]}")
    let plan = FaultPlan([SystemFault(.read, .ioFailure)])
    let diagnostics = plan.run { ManifestDecoder().validate(contentsOf: url) }
    #expect(plan.injected == [.read])
    #expect(diagnostics.map(\.description) == ["\(url.path): cannot read the file (input/output error)"])
  }

  @Test func aFailingDeviceUnderAHeldJSONLinesManifestStopsThePassNamingTheFile() throws {
    let folder = try TestFolder("stampmanifest")
    defer { folder.remove() }
    let url = try folder.write("m.jsonl", Self.job + "\n")
    let reader = ManifestDecoder().jobs(inLinesHeldOpenAt: url)
    let plan = FaultPlan([SystemFault(.pread, .ioFailure)])
    let results = plan.run { reader.map { $0.result } }
    #expect(plan.injected == [.pread])
    guard case .failure(let error)? = results.first, results.count == 1 else {
      Issue.record("a failing read gave \(results)")
      return
    }
    #expect(error.description.hasPrefix(url.path + ":"))
    #expect(error.description.contains("input/output error"))
  }

  @Test func anInterruptedReadIsReadAgain() throws {
    let folder = try TestFolder("stampmanifest")
    defer { folder.remove() }
    let url = try folder.write("m.json", #"{"version": 1, "jobs": ["# + Self.job + "]}")
    let plan = FaultPlan([SystemFault(.read, .interrupted, count: 2)])
    let manifest = try plan.run { try ManifestDecoder().decode(contentsOf: url) }
    #expect(plan.injected == [.read, .read])
    #expect(manifest.jobs.map(\.id) == ["a"])
  }
}
