import Foundation
import Testing

/// The README's "One script over a folder": Examples/folder.json, one recorded pinch over every photo of
/// Examples/photos, renders the pictures committed in Examples/results/folder, and each is what the same job written
/// out by hand for that photo renders.
@Suite("the folder example: one recorded script over Examples/photos")
struct FolderExampleTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let examples = root.appendingPathComponent("Examples")
  static let photos = ["dragonfly", "seeding", "sunset"]

  @Test func rendersTheCommittedResultsAndWhatTheJobsWrittenOutByHandRender() throws {
    let cli = try CommandRunner()
    defer { cli.remove() }
    let manifest = Self.examples.appendingPathComponent("folder.json")
    let result = try cli.run(["render", manifest.path, "--out", "out", "--quiet"])
    #expect(result.status == 0, "\(result.stderr)")
    let written = try FileManager.default.contentsOfDirectory(atPath: cli.path("out/folder")).sorted()
    #expect(written == Self.photos.map { "\($0).jpg" })
    // The photos are 1200 x 900, 1200 x 675 and 1200 x 800, all fitted into the 360 x 800 view at 360 / 1200 = 0.3
    // and centred: the photo's centre (photoCenter [0.5, 0.5]) is the view's, (180, 400), on each; photoWidth 0.2
    // is 0.2 x 1200 = 240 pixels, 240 x 0.3 = 72 points across. The same touches then act on the same stamp.
    let text = try String(contentsOf: manifest, encoding: .utf8)
    let start = try #require(text.range(of: #"{"touches""#))
    let end = try #require(text.range(of: "]}", range: start.upperBound..<text.endIndex))
    let touches = text[start.lowerBound..<end.upperBound]
    let hand = Self.photos.map { name in
      #"{"id": "\#(name)", "base": "\#(Self.examples.path)/photos/\#(name).jpg", "output": "\#(name).jpg", "#
        + #""view": {"width": 360, "height": 800, "screenScale": 3}, "settings": {"quality": 60}, "#
        + #""stamps": [{"id": "phones", "image": "\#(Self.examples.path)/stamps/headphones.png", "#
        + #""center": [180, 400], "width": 72}], "gestures": [\#(touches)]}"#
    }
    try cli.write("hand.json", #"{"version": 1, "jobs": [\#(hand.joined(separator: ","))]}"#)
    let byHand = try cli.run(["render", "hand.json", "--out", "hand", "--quiet"])
    #expect(byHand.status == 0, "\(byHand.stderr)")
    for name in Self.photos {
      let made = try Data(contentsOf: URL(fileURLWithPath: cli.path("out/folder/\(name).jpg")))
      let committed = try Data(
        contentsOf: Self.examples.appendingPathComponent("results/folder/\(name).jpg"))
      #expect(made == committed, "\(name): not the committed result")
      #expect(made == (try Data(contentsOf: URL(fileURLWithPath: cli.path("hand/\(name).jpg")))), "\(name)")
    }
  }
}
