import Foundation
import StampCore
import Testing

@testable import StampImport

/// A two-slot pinch log, imported and replayed through the gesture engine, does what its finger line says.
@Suite struct ImportedPinchReplayTests {
  /// `PinchLogs` moves the finger line from (100, 300)->(200, 500), i.e. (100, 200), to (90, 290)->(210, 520),
  /// i.e. (120, 230). The per-frame ratios and turns telescope, so (worked by hand) the stamp the first finger
  /// landed on ends at scale |(120, 230)| / |(100, 200)| = sqrt(67300 / 50000) = 1.1601724 and rotation
  /// atan2(230, 120) - atan2(200, 100) = 62.4471884 - 63.4349488 = -0.9877604 degrees (anticlockwise), its centre
  /// where it was.
  @Test(arguments: [PinchLogs.labelled, PinchLogs.numeric])
  func aPinchLogReplaysToTheHandWorkedScaleAndRotation(log: String) throws {
    let events = try GeteventImporter.parse(log, screen: StampSize(360, 800))
    let stamp = StampSpec(id: "s", center: StampPoint(150, 400), width: 300, pixelSize: StampSize(300, 300))
    let scene = try replay(
      SceneSpec(
        imageSize: StampSize(360, 800), view: StampSize(360, 800), stamps: [stamp], gestures: [.touches(events)]))
    let result = try #require(scene.stamps.first)
    #expect(abs(result.scale - 1.1601724) < 1e-6, "scale \(result.scale)")
    #expect(abs(result.rotation - -0.9877604) < 1e-6, "rotation \(result.rotation)")
    #expect(result.center == StampPoint(150, 400))
    #expect(scene.gestures.map(\.kind) == [.pinch] && scene.gestures.first?.target == "s")
  }
}
