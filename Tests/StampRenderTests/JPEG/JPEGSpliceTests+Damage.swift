import Foundation
import StampTestShim
import Testing

/// libjpeg's count of warnings reading `path` to its end, or nil when it refuses the file outright.
func libjpegWarnings(_ path: String) -> Int? {
  var difference = sjo_difference()
  var message = [CChar](repeating: 0, count: 256)
  guard sjo_compare(path, path, nil, 0, &difference, &message, message.count) == 0 else { return nil }
  return difference.warnings.0
}

/// Where a JPEG's entropy-coded data lies: after its SOS segment, up to its last EOI marker; read from the bytes.
func entropyRange(_ bytes: [UInt8]) -> Range<Int>? {
  var at = 2
  while at + 4 <= bytes.count, bytes[at] == 0xFF {
    let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    if bytes[at + 1] == 0xDA {
      let start = at + 2 + length
      guard let end = (start..<bytes.count - 1).last(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD9 }) else {
        return nil
      }
      return start..<end
    }
    at += 2 + length
  }
  return nil
}

extension JPEGSpliceTests {
  /// Copies of a clean photo whose entropy-coded data is damaged: bits flipped, the data cut short, a stuffed zero
  /// removed (its 0xFF then reads as a marker's), a marker put in. The index refuses (2, damaged, with a message; or
  /// 1) every copy libjpeg warns about, a cut always; its reading may be stricter than libjpeg-turbo's and refuse
  /// more. When it takes a copy, libjpeg reads that copy cleanly and the spliced edit of it is the whole-photo edit.
  @Test(
    "Damaged data is refused, never spliced into a wrong output",
    arguments: SplicePhoto.samplings.filter { ["4:4:4", "4:2:0", "4:1:1", "grey"].contains($0.name) })
  func damagedDataIsRefused(_ sampling: SamplingCase) throws {
    let fixtures = try Fixtures()
    defer { fixtures.remove() }
    let photo = SplicePhoto(sampling: sampling, width: 157, height: 93)
    let clean = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try photo.write(fixtures))))
    let data = try #require(entropyRange(clean))
    var copies: [(String, [UInt8])] = []
    var seed: UInt64 = 0x2545_F491_4F6C_DD1D
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(truncatingIfNeeded: seed >> 33) % bound
    }
    for _ in 0..<40 {
      let at = data.lowerBound + next(data.count)
      var copy = clean
      copy[at] ^= UInt8(1 << next(8))
      copies.append(("bit flipped at byte \(at)", copy))
    }
    for cut in [data.lowerBound + 1, data.lowerBound + data.count / 2, data.upperBound - 1, data.upperBound] {
      copies.append(("cut at byte \(cut)", Array(clean.prefix(cut))))
    }
    let stuffed = data.dropLast().filter { clean[$0] == 0xFF && clean[$0 + 1] == 0x00 }
    try #require(stuffed.count >= 5, "a textured photo at quality 90 has stuffed bytes")
    for k in 0..<5 {
      let at = stuffed[k * stuffed.count / 5]
      copies.append(("stuffed zero removed at byte \(at + 1)", Array(clean[...at]) + Array(clean[(at + 2)...])))
    }
    for _ in 0..<3 {
      var at = data.lowerBound + 1 + next(data.count - 1)
      while clean[at - 1] == 0xFF { at += 1 }
      copies.append(("marker put at byte \(at)", Array(clean[..<at]) + [0xFF, 0xD3] + Array(clean[at...])))
    }

    let state = try SpliceState()
    let rects = [MCURect(photo.mcusWide / 2, photo.mcusHigh / 2, 2, 1)]
    let path = fixtures.path("damaged.jpg")
    for (what, copy) in copies {
      try Data(copy).write(to: URL(fileURLWithPath: path))
      let run = try BothWays(fixtures, state.pointer, photo: path, rects: rects, edit: spliceEdits[0].1)
      let warned = libjpegWarnings(path).map { $0 > 0 } ?? true
      let index = run.outcome.index
      #expect(index == 0 || index == 1 || index == 2, "\(what): \(run.outcome.spliceText)")
      if index == 2 {
        #expect(!cText(run.outcome.splice_message).isEmpty, "\(what): damage reported without a message")
      }
      // Every cut, removed stuffing and marker put in makes libjpeg warn; most flipped bits do not (Huffman codes
      // fall back into step), and then the splice must agree with libjpeg's reading of the copy.
      if warned || !what.hasPrefix("bit flipped") {
        #expect(index == 1 || index == 2, "\(what): libjpeg warns \(warned), the index took it")
      }
      if index == 0 {
        // Only a copy libjpeg reads cleanly, and then the splice must agree with libjpeg's reading of it.
        try run.expectSameAsWholePhoto(photo: path, rects: rects, changed: true, what)
      } else {
        #expect(!FileManager.default.fileExists(atPath: run.spliced), "\(what): a spliced output was left")
      }
    }
  }
}
