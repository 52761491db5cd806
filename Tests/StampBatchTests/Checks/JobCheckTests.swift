import Foundation
import StampManifest
import StampRender
import Testing

@testable import StampBatch

@Suite("Job checks: output names")
struct JobCheckTests {
  func job(output: String, overlay: Bool = false) -> JobEntry {
    var job = JobEntry(id: "a", base: "photo.jpg", output: output)
    job.overlay = overlay
    return job
  }

  /// A 240-byte output name fails validation (it would fail in render once the temporary suffix is added); 212
  /// bytes, the most that leaves room for `.` + `.stampcam-<8 hex>-<pid>-<8 hex>.tmp` (43 bytes with a ten-digit
  /// pid), passes; the overlay's longer name is checked when the job asks for it.
  @Test func namesTooLongForTheirTemporaryFileAreInvalid() {
    let name212 = String(repeating: "n", count: 208) + ".png"
    #expect(JobCheck.outputs(of: job(output: "d/" + name212), file: "m.json").isEmpty)
    let long = JobCheck.outputs(of: job(output: String(repeating: "n", count: 236) + ".png"), file: "m.json")
    #expect(long.count == 1)
    #expect(long.first?.message.contains("240 bytes is too long (at most 212") == true)
    #expect(JobCheck.outputs(of: job(output: name212, overlay: true), file: "m.json").count == 1)
    #expect(JobCheck.outputs(of: job(output: name212), file: "m.json", overlayForEveryJob: true).count == 1)
  }

  /// On a machine whose libvips has no HEVC encoder, a job asking for .heic fails validation at its output's JSON
  /// path, naming the encoder, and a .avif job beside it (its encoder there) passes; the viewOutput is checked too.
  @Test func anOutputWithoutItsEncoderIsInvalidAtItsPath() {
    let noHEVC: (OutputFormat) -> String? = { $0 == .heic ? "HEIC output needs libheif with an HEVC encoder" : nil }
    var heic = job(output: "a.heic")
    heic.index = 3
    heic.line = 7
    let found = JobCheck.outputs(of: heic, file: "m.jsonl", encoders: noHEVC)
    #expect(
      found.map(\.description) == [
        "m.jsonl:7: jobs[3].output: \"a.heic\": HEIC output needs libheif with an HEVC encoder"
      ])
    #expect(JobCheck.outputs(of: job(output: "a.avif"), file: "m.jsonl", encoders: noHEVC).isEmpty)
    var view = job(output: "a.png")
    view.viewOutput = "screen.HEIF"
    #expect(JobCheck.outputs(of: view, file: "m.jsonl", encoders: noHEVC).map(\.path) == ["jobs[0].viewOutput"])
  }
}
