import Foundation
import StampCore
import StampFiles
import StampTestSupport
import Synchronization
import Testing

@testable import StampRender

/// `InputPolicy.failOn`: damaged JPEGs fail by default on both render paths (the DCT-domain transplant, for a JPEG
/// written as JPEG, and libvips, for any other output), and render when the policy lets them.
struct InputPolicyTests {
  /// A 64x48 JPEG with detail in every block, damaged as `damage` says.
  static func damaged(_ damage: String, in fixtures: Fixtures) throws -> String {
    let good = try fixtures.jpeg("good.jpg", width: 64, height: 48, subsampling: .none) { Fixtures.texture($0, $1) }
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
    let scan = try #require(bytes.markers(0xDA).first)
    let data = scan + 2 + Int(bytes[scan + 2]) << 8 + Int(bytes[scan + 3])
    switch damage {
    case "flipped":
      // 32 entropy-coded bytes garbled mid-scan (no 0xFF made or changed): the decoder loses step and stops short
      // of the data, "Corrupt JPEG data: N extraneous bytes" (8 garbled bytes here happen to decode, undetectably).
      let middle = (data + bytes.count) / 2
      for i in middle..<middle + 32 where bytes[i] != 0xFF && bytes[i - 1] != 0xFF && bytes[i] ^ 0x5A != 0xFF {
        bytes[i] ^= 0x5A
      }
    case "claims more":
      // The frame header claims 256x256 over 64x48 of data: the scan runs out (truncated).
      let frame = try #require(bytes.markers(0xC0).first)
      bytes.replaceSubrange(frame + 5..<frame + 9, with: [1, 0, 1, 0])
    default:
      bytes = Array(bytes.prefix((data + bytes.count) / 2))
    }
    try FileManager.default.removeItem(atPath: good)
    let path = fixtures.path("\(damage).jpg")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test(arguments: ["flipped", "claims more", "cut"], ["out.jpg", "out.png"])
  func aDamagedJPEGFailsByDefaultAndRendersUnderNone(_ damage: String, _ output: String) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let base = try Self.damaged(damage, in: fixtures)
    let plan = RenderPlan(base: base, stamps: [])
    let target = fixtures.path(output)
    do {
      try Renderer().render(plan, to: target)
      Issue.record("a \(damage) photo was rendered")
    } catch let error as RenderError {
      #expect(error.description.hasPrefix(base + ": "))
    }
    #expect(try fixtures.files() == [base.split(separator: "/").last.map(String.init) ?? ""])
    var lenient = Renderer()
    lenient.inputs.failOn = .none
    try lenient.render(plan, to: target)
    let written = try DecodedImage(contentsOf: target)
    let expected = damage == "claims more" ? (256, 256) : (64, 48)
    #expect((written.width, written.height) == expected)
  }

  @Test func truncatedFailsOnlyTruncatedFiles() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    var policy = Renderer()
    policy.inputs.failOn = .truncated
    let flipped = try Self.damaged("flipped", in: fixtures)
    try policy.render(RenderPlan(base: flipped, stamps: []), to: fixtures.path("a.jpg"))
    let cut = try Self.damaged("cut", in: fixtures)
    #expect(throws: RenderError.self) {
      try policy.render(RenderPlan(base: cut, stamps: []), to: fixtures.path("b.jpg"))
    }
  }

  /// A truncated PNG photo (libvips decodes it, no JPEG reader) fails every one of many jobs rendering it at once,
  /// each told by the photo, and leaves no output, while jobs rendering it under `--fail-on none` at the same time
  /// all succeed. libvips 8.14's tile cache hands a tile that failed to the other threads waiting for it as black
  /// rows, without the error: before this was watched, about one job in eight was written with black rows and most
  /// of the others blamed their output ("unknown libvips error"); the check that catches it must keep each job's
  /// own policy.
  @Test func aTruncatedPNGFailsEveryJobAtOnceByItsOwnName() throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let good = try fixtures.picture("good.png", width: 64, height: 48, bands: 3) { x, y in
      [UInt8((x * 37 + y * 91) % 256), UInt8((x * x + y) % 256), UInt8((x * y) % 256)]
    }
    let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
    let base = fixtures.path("cut.png")
    try bytes.prefix(bytes.count * 97 / 100).write(to: URL(fileURLWithPath: base))
    let plan = RenderPlan(base: base, stamps: [])
    var policy = Renderer()
    policy.inputs.failOn = .none
    let lenient = policy
    let told = Mutex<[Int: String]>([:])
    DispatchQueue.concurrentPerform(iterations: 160) { i in
      let renderer = i.isMultiple(of: 2) ? Renderer() : lenient
      do {
        try renderer.render(plan, to: fixtures.path("out-\(i).png"))
        told.withLock { $0[i] = "rendered" }
      } catch {
        told.withLock { $0[i] = "\(error)" }
      }
    }
    let messages = told.withLock { $0 }
    let strict = messages.filter { $0.key.isMultiple(of: 2) }.map(\.value)
    let allowed = messages.filter { !$0.key.isMultiple(of: 2) }.map(\.value)
    #expect(strict.count == 80 && allowed.count == 80)
    #expect(strict.allSatisfy { $0 == "\(base): truncated PNG" }, "\(Set(strict))")
    #expect(allowed.allSatisfy { $0 == "rendered" }, "\(Set(allowed))")
    let outputs = Set((0..<160).filter { !$0.isMultiple(of: 2) }.map { "out-\($0).png" })
    #expect(try Set(fixtures.files()) == outputs.union(["cut.png", "good.png"]))
  }
}
