import StampCore
import Testing

@testable import StampManifest

struct JobEntryTests {
  let job = JobEntry(
    id: "j", base: "a.jpg", output: "j.jpg", view: Size(390, 844),
    stamps: [
      StampEntry(id: "s", image: "s.png", center: Point(10, 20), width: 50, scale: 2, rotation: 30, locked: true)
    ],
    gestures: [.tap(Point(1, 2))], index: 4)

  @Test func theSceneCarriesTheJobAndTheStampsPixelSizes() throws {
    let scene = try job.scene(imageSize: Size(4000, 3000), stampPixelSizes: ["s.png": Size(200, 100)])
    #expect(
      scene
        == SceneSpec(
          imageSize: Size(4000, 3000), view: Size(390, 844),
          stamps: [
            StampSpec(
              id: "s", center: Point(10, 20), width: 50, pixelSize: Size(200, 100), scale: 2, rotation: 30,
              locked: true)
          ], gestures: [.tap(Point(1, 2))], settings: Settings()))
  }

  @Test func aStampWithoutAPixelSizeIsAnError() {
    #expect(throws: ManifestError.self) { try job.scene(imageSize: Size(1, 1), stampPixelSizes: [:]) }
  }
}
