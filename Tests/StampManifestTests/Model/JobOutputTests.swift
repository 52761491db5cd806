import StampCore
import StampManifest
import Testing

struct JobOutputTests {
  private func job(viewOutput: String? = nil, overlay: Bool = false, output: String = "d/a.jpg") -> JobEntry {
    var job = JobEntry(id: "a", base: "a.jpg", output: output, viewOutput: viewOutput)
    job.overlay = overlay
    return job
  }

  @Test func aJobWritesItsOutputAlone() {
    #expect(job().outputs() == [JobOutput(.output, path: "d/a.jpg")])
  }

  @Test func theFilesComeInTheOrderTheyAreWritten() {
    let outputs = job(viewOutput: "v/a.png", overlay: true).outputs()
    #expect(outputs.map(\.kind) == [.output, .viewOutput, .overlay])
    #expect(outputs.map(\.path) == ["d/a.jpg", "v/a.png", "d/a.overlay.jpg"])
    // The overlay has no field of its own: its name is the output's.
    #expect(outputs.map(\.field) == ["output", "viewOutput", "output"])
  }

  @Test func renderOverlayAddsTheOverlayToEveryJob() {
    #expect(job().outputs(overlayForEveryJob: true).map(\.path) == ["d/a.jpg", "d/a.overlay.jpg"])
    // Asked twice, written once.
    #expect(job(overlay: true).outputs(overlayForEveryJob: true).count == 2)
  }

  @Test func aJobWithoutAnOutputWritesNoOverlay() {
    #expect(job(overlay: true, output: "").outputs().map(\.kind) == [.output])
  }
}
