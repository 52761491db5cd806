import StampCore
import Testing

@testable import StampManifest

struct JobEntryTests {
  let job = JobEntry(
    id: "j", base: "a.jpg", output: "j.jpg", view: StampSize(390, 844),
    stamps: [
      StampEntry(id: "s", image: "s.png", center: StampPoint(10, 20), width: 50, scale: 2, rotation: 30, locked: true)
    ],
    gestures: [.tap(StampPoint(1, 2))], index: 4)

  @Test func theSceneCarriesTheJobAndTheStampsPixelSizes() throws {
    let scene = try job.scene(imageSize: StampSize(4000, 3000), stampPixelSizes: ["s.png": StampSize(200, 100)])
    #expect(
      scene
        == SceneSpec(
          imageSize: StampSize(4000, 3000), view: StampSize(390, 844),
          stamps: [
            StampSpec(
              id: "s", center: StampPoint(10, 20), width: 50, pixelSize: StampSize(200, 100), scale: 2, rotation: 30,
              locked: true)
          ], gestures: [.tap(StampPoint(1, 2))], settings: GestureSettings()))
  }

  @Test func aStampWithoutAPixelSizeIsAnError() {
    #expect(throws: ManifestError.self) { try job.scene(imageSize: StampSize(1, 1), stampPixelSizes: [:]) }
  }
}
