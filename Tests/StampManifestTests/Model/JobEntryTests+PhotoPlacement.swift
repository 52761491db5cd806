import StampCore
import Testing

@testable import StampManifest

/// A stamp placed in the photo's terms on a portrait screen (390 x 844 points), over a landscape and a portrait
/// photo. Worked by hand: the photo is fitted, f = min(390 / w, 844 / h, 1), and centred, inset = (844 - h f) / 2.
struct PhotoPlacementTests {
  private func stamp(on photo: StampSize, view: StampSize? = StampSize(390, 844)) throws -> StampSpec {
    var entry = StampEntry(id: "s", image: "s.png", center: .zero)
    (entry.photoCenter, entry.photoWidth) = (StampPoint(0.25, 0.75), 0.2)
    let job = JobEntry(id: "j", base: "b.jpg", output: "o.jpg", view: view, stamps: [entry])
    let scene = try job.scene(imageSize: photo, stampPixelSizes: [StampSize(100, 50)])
    return try #require(scene.stamps.first)
  }

  @Test func onALandscapePhotoTheStampLandsInThePhotoNotInTheLetterbox() throws {
    // f = 390 / 4000 = 0.0975; the photo is 292.5 points tall, inset (844 - 292.5) / 2 = 275.75.
    let s = try stamp(on: StampSize(4000, 3000))
    #expect(abs(s.center.x - 97.5) < 1e-9)  // 1000 px x 0.0975
    #expect(abs(s.center.y - 495.125) < 1e-9)  // 2250 px x 0.0975 + 275.75
    #expect(abs((s.width ?? 0) - 78) < 1e-9)  // 800 px x 0.0975
  }

  @Test func onAPortraitPhotoTheSameFractionsLandOnTheSamePartOfIt() throws {
    // f = 390 / 3000 = 0.13; 520 points tall, inset (844 - 520) / 2 = 162.
    let s = try stamp(on: StampSize(3000, 4000))
    #expect(abs(s.center.x - 97.5) < 1e-9)  // 750 px x 0.13
    #expect(abs(s.center.y - 552) < 1e-9)  // 3000 px x 0.13 + 162
    #expect(abs((s.width ?? 0) - 78) < 1e-9)  // 600 px x 0.13
  }

  @Test func withoutAViewTheFractionsArePhotoPixels() throws {
    let s = try stamp(on: StampSize(4000, 3000), view: nil)
    #expect(s.center == StampPoint(1000, 2250) && s.width == 800)
  }

  @Test func aStampPlacedInViewPointsIsUnchanged() throws {
    let entry = StampEntry(id: "s", image: "s.png", center: StampPoint(12, 34), width: 56)
    let job = JobEntry(id: "j", base: "b.jpg", output: "o.jpg", view: StampSize(390, 844), stamps: [entry])
    let s = try #require(
      try job.scene(imageSize: StampSize(4000, 3000), stampPixelSizes: [StampSize(1, 1)]).stamps.first)
    #expect(s.center == StampPoint(12, 34) && s.width == 56)
  }
}
